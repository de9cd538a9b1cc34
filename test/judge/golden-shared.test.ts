import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadFakes } from "../../engine/author/fakes/index.js";
import { type EvalCase, judgeRun } from "../../engine/entries/judge.js";
import { goldenFileStore } from "../../engine/eval/runner/golden-file-store.js";
import { GOLDEN_REPLAYS } from "../../engine/judge/evals/golden-calls.js";
import { useGoldenStore } from "../../engine/judge/evals/index.js";
import { startingStates } from "../../engine/serve/host/index.js";
import { callTool, compileServer, deepFreeze, type RuntimeScope, StateStore } from "../../engine/serve/runtime/index.js";
import { derivedKeys, noteDerived, sameJson } from "../../engine/core/record/index.js";
import { sharedReplay } from "../../engine/judge/evals/golden-shared.js";
import { CLOCK } from "../support/services.js";

const FIXTURE = new URL("../fixtures/shared-records/fakes.yaml", import.meta.url).pathname;
const SECRET = "ab".repeat(32);

const dirs: string[] = [];
afterEach(() => {
  useGoldenStore(undefined);
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), "golden-shared-"));
  dirs.push(dir);
  return dir;
};

/** A worker process's view: its own load of the fakes (so nothing is shared in memory) and a trial in a session over its template. */
async function worker(calls: Array<[string, Record<string, unknown>]>) {
  const loaded = await loadFakes(FIXTURE, { clock: CLOCK });
  const { states } = await startingStates(loaded.fakes, { world: loaded.world }, new Date(CLOCK));
  const template = new StateStore(states).initial;
  const store = new StateStore(template, template, true);
  const scope: RuntimeScope = { store, now: CLOCK, scenario: "quiet" };
  const server = compileServer((loaded.fakes.shop as { manifest: Parameters<typeof compileServer>[0] }).manifest);
  for (const [tool, args] of calls) await callTool(scope, server, tool, args, new AbortController().signal);
  return { loaded, run: { initial: store.initial, final: store.states, calls: [], history: false as const } };
}

const SHIP: EvalCase = {
  id: "ship",
  scenario: "quiet",
  clock: CLOCK,
  expect: {
    golden: [
      { tool: "ship", arguments: { id: "o-1" } },
      { tool: "add-item", arguments: { id: "o-2", sku: "z" } },
    ],
  },
};
const RIGHT: Array<[string, Record<string, unknown>]> = [
  ["ship", { id: "o-1" }],
  ["add-item", { id: "o-2", sku: "z" }],
];
const golden = (verdict: Awaited<ReturnType<typeof judgeRun>>) => verdict.results.find((r) => r.kind === "golden");

describe("a golden replay read from the store", () => {
  it("is noted as made from the starting world by the keys it changed, so comparing a trial with it costs those keys", async () => {
    const entries = new Map<string, unknown>();
    useGoldenStore({ read: async (id) => entries.get(id), write: async (id, value) => void entries.set(id, JSON.parse(JSON.stringify(value))) });
    const orders = deepFreeze(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`o-${i}`, { id: `o-${i}`, v: 0 }])));
    const start = deepFreeze({ shop: { orders, meta: { n: 0 } } });
    const changed = deepFreeze({ ...orders, "o-3": { id: "o-3", v: 1 }, "o-new": { id: "o-new", v: 2 } });
    // As a commit in the first worker notes it.
    noteDerived(changed, orders, ["o-3", "o-new"]);
    const made = { ok: true as const, errors: 0, states: { shop: { orders: changed, meta: start.shop.meta } } };
    await sharedReplay("ship", start, async () => made);
    const read = await sharedReplay("ship", start, async () => {
      throw new Error("replayed again");
    });
    if (!read.ok) throw new Error(read.message);
    const golden = read.states.shop.orders as object;
    expect(derivedKeys(golden, orders)?.slice().sort()).toEqual(["o-3", "o-new"]);
    expect(Object.isFrozen(golden) && sameJson(golden, changed)).toBe(true);
    expect(read.states.shop.meta).toBe(start.shop.meta);
  });
});

describe("golden replays shared by a run's worker processes", () => {
  it("judges a second worker's trials by the first worker's replay, without replaying, with the same verdicts", async () => {
    const dir = folder();
    const replay = vi.spyOn(GOLDEN_REPLAYS.mcp, "replay");
    const first = await worker(RIGHT);
    useGoldenStore(goldenFileStore({ dir, secret: SECRET, fakes: "fakes-1" }));
    const mine = await judgeRun({ fakes: first.loaded, case: SHIP, run: first.run });
    expect(replay).toHaveBeenCalledTimes(2);
    expect(readdirSync(dir)).toHaveLength(1);
    // Another process: its own fakes and worlds, the same store.
    const second = await worker(RIGHT);
    const wrong = await worker([["ship", { id: "o-3" }]]);
    const theirs = await judgeRun({ fakes: second.loaded, case: SHIP, run: second.run });
    const failing = await judgeRun({ fakes: wrong.loaded, case: SHIP, run: wrong.run });
    expect(replay).toHaveBeenCalledTimes(2);
    expect(golden(theirs)).toEqual(golden(mine));
    expect(golden(failing)?.status).toBe("failed");
    expect(golden(failing)?.message).toMatch(/shop.orders: record "o-1": status is "open" in the run, "shipped" in the golden world/);
  });

  it("replays the case again when the entry was changed on disk, and judges by the replay", async () => {
    const dir = folder();
    const first = await worker(RIGHT);
    useGoldenStore(goldenFileStore({ dir, secret: SECRET, fakes: "fakes-1" }));
    await judgeRun({ fakes: first.loaded, case: SHIP, run: first.run });
    // The entry now says the golden world is the unchanged one: a run that did nothing would pass by it.
    const [name] = readdirSync(dir);
    const entry = JSON.parse(readFileSync(join(dir, name), "utf8"));
    writeFileSync(join(dir, name), JSON.stringify({ ...entry, value: JSON.stringify({ ok: true, errors: 0, changes: {} }) }));
    const replay = vi.spyOn(GOLDEN_REPLAYS.mcp, "replay");
    const idle = await worker([]);
    const verdict = await judgeRun({ fakes: idle.loaded, case: SHIP, run: idle.run });
    expect(replay).toHaveBeenCalledTimes(2);
    expect(golden(verdict)?.status).toBe("failed");
  });
});

describe("the golden file store", () => {
  const value = { ok: true, errors: 0, changes: { shop: { orders: [{ op: "replace", path: "/o-1/status", value: "shipped" }] } } };

  it("hands back what another process of the run wrote", async () => {
    const dir = folder();
    await goldenFileStore({ dir, secret: SECRET, fakes: "f" }).write("case", value);
    expect(await goldenFileStore({ dir, secret: SECRET, fakes: "f" }).read("case")).toEqual(value);
  });

  it("vouches for no entry of other fakes, another secret, or changed on disk", async () => {
    const dir = folder();
    await goldenFileStore({ dir, secret: SECRET, fakes: "f" }).write("case", value);
    expect(await goldenFileStore({ dir, secret: SECRET, fakes: "g" }).read("case")).toBeUndefined();
    expect(await goldenFileStore({ dir, secret: "cd".repeat(32), fakes: "f" }).read("case")).toBeUndefined();
    const [name] = readdirSync(dir);
    const entry = JSON.parse(readFileSync(join(dir, name), "utf8"));
    writeFileSync(join(dir, name), JSON.stringify({ ...entry, value: entry.value.replace("shipped", "lost") }));
    expect(await goldenFileStore({ dir, secret: SECRET, fakes: "f" }).read("case")).toBeUndefined();
    writeFileSync(join(dir, name), "not json");
    expect(await goldenFileStore({ dir, secret: SECRET, fakes: "f" }).read("case")).toBeUndefined();
  });

  it("keeps no entry past its size, and no more entries than its count", async () => {
    const dir = folder();
    const small = goldenFileStore({ dir, secret: SECRET, fakes: "f", maxBytes: 20, maxEntries: 1 });
    await small.write("big", value);
    expect(readdirSync(dir)).toEqual([]);
    const few = goldenFileStore({ dir, secret: SECRET, fakes: "f", maxEntries: 1 });
    await few.write("one", value);
    await few.write("two", value);
    expect(readdirSync(dir)).toHaveLength(1);
    expect(await few.read("two")).toBeUndefined();
  });
});
