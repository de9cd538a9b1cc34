import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";
import { copyRecipe } from "../support/evals-files.js";

/**
 * The files `validate`, `serve`, `verify` and `eval` are pointed at come from a pull request as
 * often as from their author, and run beside CI's secrets: a manifest or evals file that is a
 * symlink to the environment, or an evals file whose `fakes:` leads out of its folder, must be
 * refused without printing what it leads to.
 */
const root = mkdtempSync(join(tmpdir(), "eval-simulate-hostile-evals-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SECRET = "s3cr3t-token-9d27be";
const env = { CI_DEPLOY_TOKEN: SECRET };
/** A stack trace line (diagnostics say "  at <path>", two spaces). */
const STACK = /^ {4}at /m;

function folder(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const evalsNaming = (fakes: string) =>
  `version: 1\nfakes: ${JSON.stringify(fakes)}\ncases:\n  - { id: a, script: { calls: [], answer: Done. }, expect: { answer: { contains: Done } } }\n`;

describe("a manifest or evals file that is itself a symlink to a pseudo-file", { timeout: 120_000 }, () => {
  it("validate refuses a fakes.yaml linked to /proc/self/environ without printing the environment", async () => {
    const dir = folder("manifest-environ");
    symlinkSync("/proc/self/environ", join(dir, "fakes.yaml"));
    const { code, stdout, stderr } = await runCli(["validate", join(dir, "fakes.yaml")], { env });
    expect(stdout + stderr).toContain("pseudo-file");
    expect(stdout + stderr).not.toContain(SECRET);
    expect(code).toBe(2);
  });

  it("validate refuses an evals.yaml linked to /proc/self/environ", async () => {
    const dir = folder("evals-environ");
    symlinkSync("/proc/self/environ", join(dir, "evals.yaml"));
    const { code, stdout, stderr } = await runCli(["validate", join(dir, "evals.yaml")], { env });
    expect(stdout + stderr).toContain("pseudo-file");
    expect(stdout + stderr).not.toContain(SECRET);
    expect(code).toBe(2);
  });

  it("serve refuses to start on a manifest linked to /proc/self/environ", async () => {
    const dir = folder("serve-environ");
    symlinkSync("/proc/self/environ", join(dir, "fakes.yaml"));
    const { code, stdout, stderr } = await runCli(["serve", join(dir, "fakes.yaml"), "--port", "0", "--host", "127.0.0.1"], { env });
    expect(stdout + stderr).toContain("pseudo-file");
    expect(stdout + stderr).not.toContain(SECRET);
    expect(stdout + stderr).not.toMatch(STACK);
    expect(code).not.toBe(0);
  });
});

describe("an evals file's fakes: confined to its folder", { timeout: 120_000 }, () => {
  it("refuses fakes: ../../../etc/passwd as outside the evals file's folder, without printing it", async () => {
    const dir = folder("fakes-passwd/a/b");
    writeFileSync(join(dir, "evals.yaml"), evalsNaming("../../../../../../../../etc/passwd"));
    const { code, stdout } = await runCli(["validate", join(dir, "evals.yaml")], { env });
    expect(code).toBe(1);
    expect(stdout).toMatch(/evals\.yaml:2:8 error E_FAKES the fakes manifest \.\.\/.*\/etc\/passwd cannot be loaded: it is outside the evals file's folder/);
    expect(stdout).not.toContain("root:");
  });

  it("refuses fakes: a symlink to /proc/self/environ, with --allow-outside too", async () => {
    const dir = folder("fakes-environ");
    symlinkSync("/proc/self/environ", join(dir, "fakes.yaml"));
    writeFileSync(join(dir, "evals.yaml"), evalsNaming("fakes.yaml"));
    for (const flags of [[], ["--allow-outside"]]) {
      const { code, stdout, stderr } = await runCli(["validate", join(dir, "evals.yaml"), ...flags], { env });
      expect(code).toBe(1);
      expect(stdout).toMatch(/E_FAKES the fakes manifest fakes\.yaml cannot be loaded: it (is outside|is a system pseudo-file)/);
      expect(stdout + stderr).not.toContain(SECRET);
    }
  });

  it("verify and eval refuse fakes outside the folder with exit 2, and accept them with --allow-outside", async () => {
    const recipe = copyRecipe("crm");
    const dir = folder("fakes-sibling");
    writeFileSync(join(dir, "evals.yaml"), evalsNaming(join(recipe, "fakes.yaml")));
    const evaluated = await runCli(["eval", join(dir, "evals.yaml"), "--dry"]);
    expect(evaluated.stderr).toMatch(/E_FAKES .*is outside the evals file's folder/);
    expect(evaluated.stderr).not.toMatch(STACK);
    expect(evaluated.code).toBe(2);
    const verified = await runCli(["verify", join(dir, "evals.yaml"), "--run", dir]);
    expect(verified.stderr).toMatch(/E_FAKES .*is outside the evals file's folder/);
    expect(verified.code).toBe(2);
    const allowed = await runCli(["eval", join(dir, "evals.yaml"), "--dry", "--allow-outside"]);
    expect(allowed.stdout, allowed.stderr).toMatch(/PASS: 1 case/);
    expect(allowed.code).toBe(0);
  });

  it("eval refuses a --variant or --prices file linked to /proc/self/environ, and never quotes a prices file", async () => {
    const recipe = copyRecipe("crm");
    writeFileSync(join(recipe, "evals.yaml"), evalsNaming("fakes.yaml"));
    symlinkSync("/proc/self/environ", join(recipe, "variant.yaml"));
    const variant = await runCli(["eval", join(recipe, "evals.yaml"), "--dry", "--variant", join(recipe, "variant.yaml")], { env });
    expect(variant.stderr, variant.stdout).toMatch(/variant\.yaml: it is a system pseudo-file/);
    expect(variant.stdout + variant.stderr).not.toContain(SECRET);
    expect(variant.code).toBe(2);
    writeFileSync(join(recipe, "prices.json"), `{ "openai:x": ${SECRET} }`);
    const prices = await runCli(["eval", join(recipe, "evals.yaml"), "--dry", "--prices", join(recipe, "prices.json")], { env });
    expect(prices.stderr).toMatch(/--prices .*prices\.json: cannot read it as JSON/);
    expect(prices.stdout + prices.stderr).not.toContain(SECRET.slice(0, 6));
    expect(prices.code).toBe(2);
  });
});
