import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, startServe } from "../support/cli-process.js";
import { connect } from "../support/services.js";
import { writeWarningRecipe } from "../manifest/warning-recipe.js";
import { ROOT } from "../support/examples.js";

const root = mkdtempSync(join(tmpdir(), "eval-simulate-cache-processes-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const CLOCK = "2026-01-15T12:00:00.000Z";

/** What the served fake answers: a call its captured schema refuses (a lookahead pattern), one past a maximum, one it takes. */
async function answers(manifest: string, env: NodeJS.ProcessEnv): Promise<unknown[]> {
  const served = await startServe([manifest, "--clock", CLOCK], env);
  try {
    const client = await connect(`http://127.0.0.1:${served.port}/notes/mcp`);
    const calls = [
      { name: "create-note", arguments: { title: "draft: plan" } },
      { name: "list-notes", arguments: { limit: 500 } },
      { name: "create-note", arguments: { title: "Plan" } },
    ];
    const results: unknown[] = [];
    for (const call of calls) results.push(await client.callTool(call).catch((error: Error) => ({ thrown: error.message })));
    await client.close();
    return results;
  } finally {
    served.child.kill("SIGTERM");
    await served.exited;
  }
}

/** Rewrites every entry's kept validator code (checksum kept matching): each validator then fails every value, saying so. */
function replaceKeptCode(cacheDir: string): number {
  let replaced = 0;
  for (const name of readdirSync(cacheDir).filter((entry) => entry.endsWith(".json"))) {
    const file = join(cacheDir, name);
    const text = readFileSync(file, "utf8");
    const newline = text.indexOf("\n");
    const header = JSON.parse(text.slice(0, newline));
    const body = JSON.parse(text.slice(newline + 1));
    for (const outcome of Object.values(body.compiles as Record<string, { code?: string }>)) {
      if (outcome.code === undefined) continue;
      outcome.code = 'module.exports = function v() { v.errors = [{ instancePath: "", message: "refused by the kept code" }]; return false; };';
      replaced++;
    }
    const written = JSON.stringify(body);
    header.checksum = createHash("sha256").update(written).digest("hex");
    writeFileSync(file, `${JSON.stringify(header)}\n${written}`);
  }
  return replaced;
}

describe("the manifest cache across processes (each compile then trusted, not repeated)", () => {
  it("runs the validator code an entry kept, and only from an entry owned by the user reading it", async () => {
    const env = { EVAL_SIMULATE_CACHE_DIR: join(root, "cache-code") };
    const crm = join(ROOT, "examples/crm/fakes.yaml");
    expect((await runCli(["validate", crm], { env })).code).toBe(0);
    expect(replaceKeptCode(env.EVAL_SIMULATE_CACHE_DIR)).toBeGreaterThan(0);
    const ours = await runCli(["validate", crm], { env });
    expect(ours.code).toBe(1);
    expect(ours.stdout + ours.stderr).toContain("refused by the kept code");
    const theirs = await runCli(["validate", crm], { env: { ...env, NODE_OPTIONS: `--require ${join(ROOT, "test/support/another-user.cjs")}` } });
    expect(theirs.stdout + theirs.stderr).not.toContain("refused by the kept code");
    expect(theirs.code).toBe(0);
  });

  it("validates the same way the second time, warnings and their places included, from the entry the first wrote", async () => {
    const manifest = writeWarningRecipe(join(root, "recipe-validate"));
    const env = { EVAL_SIMULATE_CACHE_DIR: join(root, "cache-validate") };
    const miss = await runCli(["validate", manifest, "--format", "json", "--clock", CLOCK], { env });
    expect(readdirSync(env.EVAL_SIMULATE_CACHE_DIR)).toHaveLength(1);
    const hit = await runCli(["validate", manifest, "--format", "json", "--clock", CLOCK], { env });
    const off = await runCli(["validate", manifest, "--format", "json", "--clock", CLOCK], { env: { EVAL_SIMULATE_CACHE: "0" } });
    expect(miss.code).toBe(0);
    expect(JSON.parse(miss.stdout)).toEqual(JSON.parse(off.stdout));
    expect(JSON.parse(hit.stdout)).toEqual(JSON.parse(off.stdout));
    expect(hit.stdout).toContain("W_PATTERN_FALLBACK");
  });

  it("serves after validate with the schemas compiled on first use: every call answered as without the cache", async () => {
    const manifest = writeWarningRecipe(join(root, "recipe-serve"));
    const env = { EVAL_SIMULATE_CACHE_DIR: join(root, "cache-serve") };
    expect((await runCli(["validate", manifest], { env })).code).toBe(0);
    const cached = await answers(manifest, env);
    const uncached = await answers(manifest, { EVAL_SIMULATE_CACHE: "0" });
    expect(cached).toEqual(uncached);
    expect(JSON.stringify(cached)).toMatch(/must match pattern/);
  });

  it("is not used by a build whose schema validators were rebuilt after its id (a partial rebuild)", async () => {
    const validator = join(ROOT, "dist", "validators", "manifest.cjs");
    expect(existsSync(validator)).toBe(true);
    const { atime, mtime } = statSync(validator);
    const manifest = writeWarningRecipe(join(root, "recipe-partial"));
    const env = { EVAL_SIMULATE_CACHE_DIR: join(root, "cache-partial") };
    // As `node scripts/build-validators.mjs` alone would leave it: newer than dist/build-id.txt.
    utimesSync(validator, atime, new Date(Date.now() + 60_000));
    try {
      expect((await runCli(["validate", manifest], { env })).code).toBe(0);
    } finally {
      utimesSync(validator, atime, mtime);
    }
    expect(existsSync(env.EVAL_SIMULATE_CACHE_DIR) ? readdirSync(env.EVAL_SIMULATE_CACHE_DIR) : []).toEqual([]);
  });
});
