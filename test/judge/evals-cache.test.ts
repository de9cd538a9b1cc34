import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkEvals, type EvalsCheck } from "../../engine/judge/evals/load-evals.js";
import { rewriteCacheEntry } from "../support/cache-entries.js";
import { ROOT } from "../support/examples.js";

const root = mkdtempSync(join(tmpdir(), "eval-simulate-evals-cache-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let cacheDir: string;
let recipe: string;
let runs = 0;
const saved = { dir: process.env.EVAL_SIMULATE_CACHE_DIR, off: process.env.EVAL_SIMULATE_CACHE };

beforeEach(() => {
  cacheDir = mkdtempSync(join(root, "cache-"));
  process.env.EVAL_SIMULATE_CACHE_DIR = cacheDir;
  delete process.env.EVAL_SIMULATE_CACHE;
  // The crm example's cases beside its own fakes (whose handlers import the package by name).
  recipe = join(root, `crm-${++runs}`);
  mkdirSync(recipe);
  const crm = join(ROOT, "examples/crm");
  writeFileSync(evalsFile(), readFileSync(join(crm, "evals.yaml"), "utf8").replace("fakes: fakes.yaml", `fakes: ${JSON.stringify(join(crm, "fakes.yaml"))}`));
});
afterEach(() => {
  for (const [name, value] of [
    ["EVAL_SIMULATE_CACHE_DIR", saved.dir],
    ["EVAL_SIMULATE_CACHE", saved.off],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const evalsFile = () => join(recipe, "evals.yaml");
const check = () => checkEvals(evalsFile(), { clock: "2026-10-01T09:00:00.000Z", allowOutside: true });
const entries = () => readdirSync(cacheDir).filter((name) => name.endsWith(".json"));
/** The entries whose value is an evals file's (it names its fakes and has cases). */
const evalsEntries = () =>
  entries().filter((name) => {
    const text = readFileSync(join(cacheDir, name), "utf8");
    const value = JSON.parse(JSON.parse(text.slice(text.indexOf("\n") + 1)).value);
    return Array.isArray(value.cases);
  });
const comparable = (checked: EvalsCheck) => ({ evals: checked.evals, diagnostics: checked.diagnostics, fakes: checked.fakes?.manifest.file });

describe("the manifest cache, for an evals file", () => {
  it("gives the same evals document and diagnostics on a hit as on a miss, from one entry of its own", async () => {
    const miss = await check();
    expect(miss.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(evalsEntries()).toHaveLength(1);
    const hit = await check();
    expect(comparable(hit)).toEqual(comparable(miss));
    expect(evalsEntries()).toHaveLength(1);
  });

  it("reads a hit from the entry: a body rewritten with a matching checksum shows in the document", async () => {
    await check();
    const [name] = evalsEntries();
    rewriteCacheEntry(join(cacheDir, name), (body) => {
      const value = JSON.parse(body.value);
      value.description = "from the cache";
      body.value = JSON.stringify(value);
    });
    expect((await check()).evals?.description).toBe("from the cache");
  });

  it("keys the entry by the text: an edit that breaks the file is reported at its line, not hidden", async () => {
    await check();
    const text = readFileSync(evalsFile(), "utf8");
    writeFileSync(evalsFile(), text.replace("    scenario: quiet\n", "    scenario: quiet\n    no-such-key: 1\n"));
    const checked = await check();
    expect(checked.evals).toBeUndefined();
    expect(checked.diagnostics.some((d) => d.severity === "error" && d.line > 1)).toBe(true);
  });

  it("writes no entry for an evals file with an error", async () => {
    const text = readFileSync(evalsFile(), "utf8");
    writeFileSync(evalsFile(), text.replace("tool: crm/update-record", "tool: crm/no-such-tool"));
    const checked = await check();
    expect(checked.diagnostics.some((d) => d.severity === "error")).toBe(true);
    expect(evalsEntries()).toEqual([]);
  });
});
