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
import { GOLDEN_REPLAYS } from "./golden-calls.js";
import { type Replayed, sharedReplay } from "./golden-shared.js";
import { show } from "./match-value.js";
import { describeRecordDiff, recordDiff } from "./state-diff.js";
import { type AssertionResult, failed, notEvaluated, passed } from "./types.js";

type Golden = NonNullable<EvalCase["expect"]["golden"]>;
type GoldenStep = { tool: string; arguments?: Record<string, unknown>; error?: boolean | string; result?: unknown };

/** Why a call's outcome is not the one the reference recorded; undefined when it is. */
function offReference(call: GoldenStep, failure: string | undefined): string | undefined {
  const succeeded = call.error === false || (call.error === undefined && call.result !== undefined);
  if (failure === undefined) return call.error === undefined || call.error === false ? undefined : "succeeded where the reference's call answered an error";
  if (succeeded) return `failed where the reference's call succeeded: ${failure}`;
  if (typeof call.error === "string" && !failure.includes(call.error)) return `answered another error than the reference's (${show(call.error)}): ${failure}`;
  return undefined;
}

/** The world a replay starts from: the case's scenario and clock when the case gives a clock, else the run's own initial world. */
async function startOf(loaded: LoadedFakes, start: { scenario?: string; clock?: string; initial: StatesByFake }): Promise<States> {
  return start.clock ? sharedStart(await freshWorld(loaded, start.scenario, start.clock), start.initial) : (start.initial as States);
}

/**
 * Replays the golden calls, in order, on the starting world `states` through the fakes' own
 * handlers (no stubs, no faults, no HTTP).
 */
async function replay(
  loaded: LoadedFakes,
  calls: readonly GoldenStep[],
  maps: FakeMaps,
  start: { scenario?: string; clock?: string },
  states: States,
): Promise<Replayed> {
  const clock = parseClock(start.clock);
  // The store copies the states it starts from: the cached world and the run's stay as they are.
  const store = new StateStore(states);
  const scope: RuntimeScope = { store, now: clock.toISOString(), scenario: start.scenario ?? loaded.world.defaultScenario };
  let errors = 0;
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
    if (problem && "cannot" in problem) return { ok: false, message: `${what}: ${problem.cannot}` };
    // An error is part of the reference (benchmarks keep failed attempts on purpose); it changes nothing.
    const off = offReference(call, problem?.failed);
    if (off) return { ok: false, message: `${what} ${off}` };
    if (problem) errors++;
  }
  return { ok: true, states: store.states, errors };
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
  const parts = describeRecordDiff(diff, { now: "in the run", before: "in the golden world" });
  return `${ref}: ${parts.join("; ") || "records in another order"}`;
}

/**
 * `golden`: the run's final world must equal the world the reference calls make (entity by
 * entity, by world hash), narrowed to `entities`; no calls: the world must end as it started.
 * A golden call that answers an error is replayed as the reference's failed attempt; one whose
 * outcome is not the one the reference recorded (`error`, `result`) leaves the case not
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
    replayed = await replayOnce(loaded, { scenario: run.scenario, clock: run.clock, calls, initial: run.initial }, async (id) => {
      const states = await startOf(loaded, run);
      // Another process of the run may have replayed this case already (`eval --workers`).
      return sharedReplay(id, states, () => replay(loaded, calls, maps, run, states));
    });
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
      `the final world equals the golden world (${refs.length} entit${refs.length === 1 ? "y" : "ies"} compared by hash, ${calls.length} golden call${calls.length === 1 ? "" : "s"}${replayed.errors > 0 ? `, ${replayed.errors} answering an error as the reference's did` : ""})`,
    );
  return failed("golden", "golden", `the final world differs from the golden world: ${differing.join(" | ")}`, { hashes: evidence });
}
