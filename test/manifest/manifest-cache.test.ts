import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkManifest } from "../../engine/author/manifest/load-manifest.js";
import { MAX_ENTRIES } from "../../engine/author/manifest/manifest-cache.js";
import type { LoadResult } from "../../engine/author/manifest/index.js";
import { rewriteCacheEntry } from "../support/cache-entries.js";
import { writeWarningRecipe } from "./warning-recipe.js";

const CLOCK = "2026-01-15T12:00:00.000Z";
const root = mkdtempSync(join(tmpdir(), "eval-simulate-manifest-cache-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let cacheDir: string;
let recipe: string;
let runs = 0;
const saved = { dir: process.env.EVAL_SIMULATE_CACHE_DIR, off: process.env.EVAL_SIMULATE_CACHE };

/** What a check gives, as comparable data: the diagnostics, and the manifest without its functions. */
function comparable(result: LoadResult): unknown {
  return { diagnostics: result.diagnostics, manifest: JSON.parse(JSON.stringify(result.manifest ?? null)) };
}

const entries = () => readdirSync(cacheDir).filter((name) => name.endsWith(".json"));
const check = (file = recipe) => checkManifest(file, { clock: CLOCK });

beforeEach(() => {
  cacheDir = mkdtempSync(join(root, "cache-"));
  process.env.EVAL_SIMULATE_CACHE_DIR = cacheDir;
  delete process.env.EVAL_SIMULATE_CACHE;
  recipe = writeWarningRecipe(join(root, `recipe-${++runs}`));
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

/** Rewrites the one entry's body, with a checksum that matches it (or not). */
function rewriteEntry(change: (body: { value: string; positions: unknown; compiles: unknown }) => void, options: { checksum?: "match" | "stale" } = {}): void {
  const [name] = entries();
  rewriteCacheEntry(join(cacheDir, name), change as (body: { value: string }) => void, options);
}

describe("the manifest cache", () => {
  it("gives the same manifest and the same diagnostics, warnings and their places included, on a hit as on a miss", async () => {
    const miss = await check();
    expect(miss.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(miss.diagnostics.map((d) => d.code).sort()).toEqual(["W_PATTERN_FALLBACK", "W_UNDECLARED_READ", "W_UNKNOWN_ARGUMENT"]);
    expect(entries()).toHaveLength(1);
    const hit = await check();
    expect(comparable(hit)).toEqual(comparable(miss));
    // The hit's tool schemas still validate (compiled on their first use).
    expect(entries()).toHaveLength(1);
  });

  it("reads a hit from the entry: a body rewritten with a matching checksum shows in the manifest", async () => {
    await check();
    rewriteEntry((body) => {
      const value = JSON.parse(body.value);
      value.servers.notes.tools["export-notes"].jsonata = '"from the cache"';
      body.value = JSON.stringify(value);
    });
    const hit = await check();
    expect(hit.manifest).toBeDefined();
    expect(JSON.stringify(hit.manifest)).toContain("from the cache");
  });

  it("ignores an entry whose body does not match its checksum, is cut short or is not JSON, and checks in full", async () => {
    const miss = comparable(await check());
    const [name] = entries();
    const original = readFileSync(join(cacheDir, name), "utf8");
    const broken = [
      () =>
        rewriteEntry(
          (body) => {
            const value = JSON.parse(body.value);
            value.servers.notes.tools["export-notes"].description = "tampered";
            body.value = JSON.stringify(value);
          },
          { checksum: "stale" },
        ),
      () => writeFileSync(join(cacheDir, name), original.slice(0, original.length - 100)),
      () => writeFileSync(join(cacheDir, name), "not json\n{"),
      () => rewriteEntry((body) => (body.positions = { 'v["servers"]': { line: "one", column: 1 } })),
      () => rewriteEntry((body) => (body.compiles = { x: { warnings: [1], notes: [] } })),
    ];
    for (const breakIt of broken) {
      writeFileSync(join(cacheDir, name), original);
      breakIt();
      expect(comparable(await check())).toEqual(miss);
    }
  });

  it("keys entries by the manifest's text: an edit that breaks a schema is reported, not hidden by the entry before it", async () => {
    expect((await check()).manifest).toBeDefined();
    const broken = readFileSync(recipe, "utf8").replace("properties: { id: { type: string }", 'properties: { id: { type: string, pattern: "(" }');
    writeFileSync(recipe, broken);
    const result = await check();
    expect(result.manifest).toBeUndefined();
    expect(result.diagnostics.map((d) => d.code)).toContain("E_JSON_SCHEMA");
  });

  it("checks again what the manifest names: a changed captured schema is compiled, not trusted", async () => {
    await check();
    const tools = JSON.parse(readFileSync(join(recipe, "../tools.json"), "utf8"));
    tools.tools[1].inputSchema.properties.title.pattern = "(";
    writeFileSync(join(recipe, "../tools.json"), JSON.stringify(tools));
    const result = await check();
    expect(result.manifest).toBeUndefined();
    expect(result.diagnostics.some((d) => d.severity === "error" && /pattern|regular expression/i.test(d.message))).toBe(true);
  });

  it("writes nothing for an invalid manifest, and nothing at all when EVAL_SIMULATE_CACHE=0", async () => {
    writeFileSync(recipe, readFileSync(recipe, "utf8").replace("reads: [notes]", "reads: [nope]"));
    expect((await check()).manifest).toBeUndefined();
    expect(entries()).toEqual([]);
    process.env.EVAL_SIMULATE_CACHE = "0";
    expect((await check(writeWarningRecipe(join(root, `recipe-${++runs}`)))).manifest).toBeDefined();
    expect(entries()).toEqual([]);
  });

  it(`keeps at most ${MAX_ENTRIES} entries, removing the oldest`, async () => {
    for (let i = 0; i < MAX_ENTRIES + 5; i++) writeFileSync(join(cacheDir, `${i.toString(16).padStart(64, "0")}.json`), "old\n{}");
    await check();
    expect(entries()).toHaveLength(MAX_ENTRIES);
    expect(entries().filter((name) => name.startsWith("0000000000"))).toHaveLength(MAX_ENTRIES - 1);
  });
});
