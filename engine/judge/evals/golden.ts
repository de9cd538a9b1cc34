import type { EvalCase } from "../../../schema/evals/evals.js";
import { kindName, type LoadedFakes } from "../../author/fakes/index.js";
import type { RuntimeScope } from "../../serve/runtime/index.js";
import { type States, StateStore } from "../../serve/runtime/index.js";
import type { StatesByFake } from "../../core/record/index.js";
import { sameJson, valueHash } from "../../core/record/index.js";
import { parseClock } from "../../author/world/index.js";
import type { FakeMaps } from "./fake-maps.js";
import { freshWorld } from "./fresh-world.js";
import { replayOnce, sharedStart } from "./golden-cache.js";
import { GOLDEN_REPLAYS, type GoldenReplay } from "./golden-calls.js";
import { show } from "./match-value.js";
import { recordDiff } from "./state-diff.js";
import { type AssertionResult, failed, notEvaluated, passed } from "./types.js";

type Golden = NonNullable<EvalCase["expect"]["golden"]>;
type GoldenStep = { tool: string; arguments?: Record<string, unknown> };

/** The golden world, or why it could not be made (a golden call that failed, an unknown tool). */
type Replayed = { ok: true; states: States } | { ok: false; message: string };

/**
 * Replays the golden calls, in order, on a fresh world through the fakes' own handlers (no
 * stubs, no faults, no HTTP): the case's scenario and clock when the case gives a clock, else
 * the run's own initial world.
 */
async function replay(
  loaded: LoadedFakes,
  calls: readonly GoldenStep[],
  maps: FakeMaps,
  start: { scenario?: string; clock?: string; initial: StatesByFake },
): Promise<Replayed> {
  const clock = parseClock(start.clock);
  const states = start.clock ? sharedStart(await freshWorld(loaded, start.scenario, start.clock), start.initial) : (start.initial as States);
  // The store copies the states it starts from: the cached world and the run's stay as they are.
  const store = new StateStore(states);
  const scope: RuntimeScope = { store, now: clock.toISOString(), scenario: start.scenario ?? loaded.world.defaultScenario };
  for (const [i, call] of calls.entries()) {
    const what = `golden call #${i + 1} ${call.tool}`;
    const found = maps.resolve(call.tool);
    if (found.length !== 1)
      return {
        ok: false,
        message: `${what}: ${found.length === 0 ? "no fake serves this tool" : `ambiguous (${found.map((f) => `${f.server}/${f.tool}`).join(", ")})`}`,
      };
    const { server, tool } = found[0];
    const fake = loaded.fakes[server];
    const problem = await GOLDEN_REPLAYS[kindName(fake)].replay(scope, fake, { server, tool, args: call.arguments ?? {} });
    if (problem) return { ok: false, message: "failed" in problem ? `${what} failed: ${problem.failed}` : `${what}: ${problem.cannot}` };
  }
  return { ok: true, states: store.states };
}

/** The entities compared: `<fake>.<entity>` for each named fake or entity (every one by default). */
function compared(golden: StatesByFake, final: StatesByFake, only?: readonly string[]): string[] {
  const all = [...new Set([...Object.keys(golden), ...Object.keys(final)])].flatMap((id) =>
    [...new Set([...Object.keys(golden[id] ?? {}), ...Object.keys(final[id] ?? {})])].map((entity) => `${id}.${entity}`),
  );
  if (!only) return all;
  return all.filter((ref) => only.some((name) => ref === name || ref.startsWith(`${name}.`)));
}

/** A record-level account of how the run's entity differs from the golden one. */
function differences(ref: string, run: unknown, gold: unknown): string {
  const diff = recordDiff(gold, run);
  if (!diff) return `${ref} is ${show(run)} in the run, ${show(gold)} in the golden world`;
  const key = (r: unknown) => show((r as Record<string, unknown>)[diff.key]);
  const parts = [
    ...diff.updated.map((u) => {
      const fields = [...new Set([...Object.keys(u.before as object), ...Object.keys(u.after as object)])]
        .filter((f) => show((u.before as Record<string, unknown>)[f]) !== show((u.after as Record<string, unknown>)[f]))
        .map(
          (f) => `${f} is ${show((u.after as Record<string, unknown>)[f])} in the run, ${show((u.before as Record<string, unknown>)[f])} in the golden world`,
        );
      return `record ${show(u.key)}: ${fields.join(", ")}`;
    }),
    ...diff.added.map((r) => `record ${key(r)} is only in the run`),
    ...diff.removed.map((r) => `record ${key(r)} is only in the golden world`),
  ];
  return `${ref}: ${parts.join("; ") || "records in another order"}`;
}

/**
 * `golden`: the run's final world must equal the world the reference calls make (entity by
 * entity, by world hash), narrowed to `entities`. A golden call that fails leaves the case not
 * evaluated, never passed.
 *
 * @example await judgeGolden(expect.golden, loaded, maps, { scenario, clock, initial: run.initial, final: run.final })
 */
export async function judgeGolden(
  golden: Golden,
  loaded: LoadedFakes,
  maps: FakeMaps,
  run: { scenario?: string; clock?: string; initial: StatesByFake; final: StatesByFake },
): Promise<AssertionResult> {
  const calls = Array.isArray(golden) ? golden : golden.calls;
  const only = Array.isArray(golden) ? undefined : golden.entities;
  let replayed: Replayed;
  try {
    replayed = await replayOnce(loaded, { scenario: run.scenario, clock: run.clock, calls, initial: run.initial }, () => replay(loaded, calls, maps, run));
  } catch (error) {
    replayed = { ok: false, message: (error as Error).message.replace(/^\[eval-simulate\] /, "") };
  }
  if (!replayed.ok) return notEvaluated("golden", "golden", `the golden path cannot be replayed: ${replayed.message}`);
  const refs = compared(replayed.states, run.final, only);
  const differing: string[] = [];
  const evidence: Record<string, { run: string; golden: string }> = {};
  for (const ref of refs) {
    const [id, entity] = ref.split(".");
    // Equal JSON is equal hashes; compared first, since shared records make it cost the changes.
    if (sameJson(run.final[id]?.[entity], replayed.states[id]?.[entity])) continue;
    const mine = valueHash(run.final[id]?.[entity]);
    const theirs = valueHash(replayed.states[id]?.[entity]);
    if (mine === theirs) continue;
    differing.push(differences(ref, run.final[id]?.[entity], replayed.states[id]?.[entity]));
    evidence[ref] = { run: mine, golden: theirs };
  }
  if (differing.length === 0)
    return passed(
      "golden",
      "golden",
      `the final world equals the golden world (${refs.length} entit${refs.length === 1 ? "y" : "ies"} compared by hash, ${calls.length} golden call${calls.length === 1 ? "" : "s"})`,
    );
  return failed("golden", "golden", `the final world differs from the golden world: ${differing.join(" | ")}`, { hashes: evidence });
}
