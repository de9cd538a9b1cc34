import { describe, expect, it, vi } from "vitest";
import { loadFakes } from "../../engine/author/fakes/index.js";
import { type EvalCase, judgeRun } from "../../engine/entries/judge.js";
import { GOLDEN_REPLAYS } from "../../engine/judge/evals/golden-calls.js";
import { startingStates } from "../../engine/serve/host/index.js";
import { callTool, compileServer, type RuntimeScope, StateStore } from "../../engine/serve/runtime/index.js";
import { CLOCK } from "../support/services.js";

const FIXTURE = new URL("../fixtures/shared-records/fakes.yaml", import.meta.url).pathname;

/** A trial in-process: a session's store over a frozen starting world, its calls made, its two worlds. */
async function trial(loaded: Awaited<ReturnType<typeof loadFakes>>, initial: StateStore["initial"], calls: Array<[string, Record<string, unknown>]>) {
  const store = new StateStore(initial, initial, true);
  const scope: RuntimeScope = { store, now: CLOCK, scenario: "quiet" };
  const server = compileServer((loaded.fakes.shop as { manifest: Parameters<typeof compileServer>[0] }).manifest);
  for (const [tool, args] of calls) await callTool(scope, server, tool, args, new AbortController().signal);
  return { initial: store.initial, final: store.states, calls: [], history: false as const };
}

const golden = (id: string, calls: Array<{ tool: string; arguments: Record<string, unknown> }>): EvalCase => ({
  id,
  scenario: "quiet",
  clock: CLOCK,
  expect: { golden: calls },
});

describe("golden replay once per case", () => {
  it("replays a case's golden calls for its first trial only, and judges every trial by them", async () => {
    const loaded = await loadFakes(FIXTURE, { clock: CLOCK });
    const { states } = await startingStates(loaded.fakes, { world: loaded.world }, new Date(CLOCK));
    const template = new StateStore(states).initial;
    const replay = vi.spyOn(GOLDEN_REPLAYS.mcp, "replay");
    const ship = golden("ship", [
      { tool: "ship", arguments: { id: "o-1" } },
      { tool: "add-item", arguments: { id: "o-2", sku: "z" } },
    ]);
    const right = await trial(loaded, template, [
      ["ship", { id: "o-1" }],
      ["add-item", { id: "o-2", sku: "z" }],
    ]);
    const wrong = await trial(loaded, template, [["ship", { id: "o-3" }]]);
    const verdicts = [];
    for (const run of [right, wrong, right]) verdicts.push(await judgeRun({ fakes: loaded, case: ship, run }));
    expect(verdicts.map((v) => v.results.find((r) => r.kind === "golden")?.status)).toEqual(["passed", "failed", "passed"]);
    expect(verdicts[1].results.find((r) => r.kind === "golden")?.message).toMatch(
      /^the final world differs from the golden world: shop.orders: record "o-1": status is "open" in the run, "shipped" in the golden world/,
    );
    expect(replay).toHaveBeenCalledTimes(2);
    // Other calls are another case's golden world: replayed again.
    const other = await judgeRun({ fakes: loaded, case: golden("ship-3", [{ tool: "ship", arguments: { id: "o-3" } }]), run: wrong });
    expect(other.results.find((r) => r.kind === "golden")?.status).toBe("passed");
    expect(replay).toHaveBeenCalledTimes(3);
    replay.mockRestore();
  });
});
