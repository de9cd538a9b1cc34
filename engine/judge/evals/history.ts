import { applyEntityPatch, type EntityPatches, sameJson } from "../../core/record/index.js";
import type { RecordedCall, StatesByFake } from "../../core/record/index.js";
import type { JudgedCall } from "./fake-maps.js";

/** One commit of a run and the world after it. */
export interface Commit {
  /** 1-based, in the order commits happened. */
  number: number;
  call: JudgedCall;
  fake: string;
  /** The entities it changed. */
  entities: string[];
  changes: EntityPatches;
  world: StatesByFake;
}

/** The run's worlds: the initial one, then one after every commit; or why they cannot be rebuilt. */
export type History = { ok: true; initial: StatesByFake; commits: Commit[] } | { ok: false; reason: string };

type Line = RecordedCall & { commit?: unknown; changes?: unknown };

/**
 * Orders committed lines as their commits happened: by commit number within each run (a line
 * can reach the record just after a later commit's line), runs in file order. A resumed run
 * appends to the same record with its numbers starting again, so a number seen twice starts
 * the next run.
 */
function inCommitOrder(lines: Array<{ call: JudgedCall; seq: number; changes: EntityPatches }>) {
  const runs: Array<typeof lines> = [];
  let seen = new Set<number>();
  for (const line of lines) {
    if (runs.length === 0 || seen.has(line.seq)) {
      runs.push([]);
      seen = new Set();
    }
    seen.add(line.seq);
    runs[runs.length - 1].push(line);
  }
  return runs.flatMap((run) => [...run].sort((a, b) => a.seq - b.seq));
}

/**
 * Rebuilds the world after every commit from the initial state and the record's `changes`, and
 * checks that the last one is the run's final state (a record from another run, or one cut short,
 * would rebuild a different world).
 *
 * @example const history = rebuildHistory(run.initial, run.final, judgedCalls(run.calls, maps));
 */
export function rebuildHistory(initial: StatesByFake, final: StatesByFake, calls: readonly JudgedCall[]): History {
  const committed: Array<{ call: JudgedCall; seq: number; changes: EntityPatches }> = [];
  for (const call of calls) {
    const line = call.line as Line;
    if (line.commit === undefined) continue;
    if (typeof line.commit !== "number" || typeof line.changes !== "object" || line.changes === null) {
      return { ok: false, reason: `call #${call.number} has a malformed commit (commit: ${JSON.stringify(line.commit)})` };
    }
    committed.push({ call, seq: line.commit, changes: line.changes as EntityPatches });
  }
  const commits: Commit[] = [];
  let world = initial;
  for (const { call, changes } of inCommitOrder(committed)) {
    const state = { ...(world[call.server] ?? {}) };
    try {
      for (const [entity, patch] of Object.entries(changes)) state[entity] = applyEntityPatch(state[entity], patch);
    } catch (error) {
      return {
        ok: false,
        reason: `the changes of call #${call.number} (${call.server}/${call.tool}) do not apply to the world before it: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`,
      };
    }
    for (const [entity, value] of Object.entries(state)) if (value === undefined) delete state[entity];
    world = { ...world, [call.server]: state };
    commits.push({ number: commits.length + 1, call, fake: call.server, entities: Object.keys(changes), changes, world });
  }
  for (const id of new Set([...Object.keys(world), ...Object.keys(final)])) {
    for (const entity of new Set([...Object.keys(world[id] ?? {}), ...Object.keys(final[id] ?? {})])) {
      if (!sameJson(world[id]?.[entity], final[id]?.[entity])) {
        const hint = committed.length === 0 && calls.length > 0 ? " (the record carries no changes: was it written by an older eval-simulate?)" : "";
        return { ok: false, reason: `the record's changes rebuild a world whose ${id}.${entity} differs from the final state${hint}` };
      }
    }
  }
  return { ok: true, initial, commits };
}
