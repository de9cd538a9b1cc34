import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { packTarball, runIn } from "../support/packed-install.js";

// What `init` writes works as written: from `npm install <tarball>` in an empty folder (the
// README's set-up), through init, to `npm test` and `eval --dry`, each a real process.

const CAPTURE = join(ROOT, "examples/crm/mcp/crm/tools.json");
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-init-runs-"));
  temps.push(dir);
  return dir;
}

/** The path a file's `# yaml-language-server: $schema=` modeline names, resolved from the file's folder. */
function modelineTarget(file: string): string {
  const path = /^# yaml-language-server: \$schema=(\S+)$/m.exec(readFileSync(file, "utf8"))?.[1];
  expect(path, `${file} has no modeline`).toBeDefined();
  return resolve(dirname(file), path!);
}

describe("the Recipe init writes", () => {
  it("passes npm test and eval --dry after npm install of the tarball, init, npm install", async () => {
    const work = temp();
    const tarball = packTarball(work);
    const recipe = join(work, "my-recipe");
    mkdirSync(recipe);
    const install = ["--no-audit", "--no-fund", "--prefer-offline"];
    execFileSync("npm", ["install", ...install, "--save-dev", tarball], { cwd: recipe, stdio: "ignore" });
    const init = await runIn(recipe, "npx", ["--no-install", "eval-simulate", "init", "--from", CAPTURE]);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/package\.json \("type": "module", the test script "node --test", @modelcontextprotocol\/client@2\.4\.0\)/);
    const pkg = JSON.parse(readFileSync(join(recipe, "package.json"), "utf8"));
    expect(pkg.type).toBe("module");
    // The tarball npm install saved stays what it was.
    expect(pkg.devDependencies["eval-simulate"]).toMatch(/^file:/);
    execFileSync("npm", ["install", ...install], { cwd: recipe, stdio: "ignore" });

    for (const file of ["fakes.yaml", "evals.yaml"]) expect(existsSync(modelineTarget(join(recipe, file))), file).toBe(true);
    const test = await runIn(recipe, "npm", ["test"]);
    expect(test.stdout, test.stderr).toMatch(/# fail 0/);
    expect(test.code).toBe(0);
    const dry = await runIn(recipe, "npx", ["--no-install", "eval-simulate", "eval", "evals.yaml", "--dry"]);
    expect(dry.stdout, dry.stderr).toMatch(/^PASS: 1 case \(1 passed, 0 failed\)/m);
    expect(dry.code).toBe(0);
  }, 240_000);

  it("names the installed schemas relative to each written file, from a Recipe below the project", async () => {
    const project = temp();
    mkdirSync(join(project, "node_modules"));
    symlinkSync(ROOT, join(project, "node_modules/eval-simulate"));
    const recipe = join(project, "recipes/crm");
    const init = await runCli(["init", recipe, "--from", CAPTURE]);
    expect(init.code, init.stderr).toBe(0);
    const line = readFileSync(join(recipe, "fakes.yaml"), "utf8").split("\n")[0];
    expect(line).toBe("# yaml-language-server: $schema=../../node_modules/eval-simulate/eval-simulate.schema.json");
    expect(modelineTarget(join(recipe, "fakes.yaml"))).toBe(join(project, "node_modules/eval-simulate/eval-simulate.schema.json"));
    expect(modelineTarget(join(recipe, "evals.yaml"))).toBe(join(project, "node_modules/eval-simulate/eval-simulate.evals.schema.json"));
  });

  it("completes a package.json already there without changing what it says, and warns on commonjs", async () => {
    const recipe = temp();
    const mine = { name: "mine", type: "commonjs", scripts: { test: "vitest" }, devDependencies: { "eval-simulate": "1.2.3" } };
    writeFileSync(join(recipe, "package.json"), JSON.stringify(mine));
    const init = await runCli(["init", recipe, "--from", CAPTURE]);
    expect(init.code).toBe(0);
    expect(init.stderr).toMatch(/"type": "commonjs": tests\/fakes\.test\.js is an ES module/);
    expect(JSON.parse(readFileSync(join(recipe, "package.json"), "utf8"))).toEqual({
      ...mine,
      devDependencies: { "eval-simulate": "1.2.3", "@modelcontextprotocol/client": "2.4.0" },
    });
  });
});
