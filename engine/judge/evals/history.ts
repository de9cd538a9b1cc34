import { applyEntityPatch, type EntityPatches, sameJson } from "../../core/record/index.js";
import type { RecordedCall, StatesByFake } from "../../core/record/index.js";
import type { JudgedCall } from "./fake-maps.js";
import { rebuildsFinal } from "./history-check.js";

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

/** The worlds after each commit, applied in order; a reason when a commit's changes do not apply. */
function rebuildWorlds(initial: StatesByFake, ordered: ReadonlyArray<{ call: JudgedCall; changes: EntityPatches }>): StatesByFake[] | string {
  const worlds: StatesByFake[] = [];
  let world = initial;
  for (const { call, changes } of ordered) {
    const state = { ...(world[call.server] ?? {}) };
    try {
      for (const [entity, patch] of Object.entries(changes)) state[entity] = applyEntityPatch(state[entity], patch);
    } catch (error) {
      return `the changes of call #${call.number} (${call.server}/${call.tool}) do not apply to the world before it: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`;
    }
    for (const [entity, value] of Object.entries(state)) if (value === undefined) delete state[entity];
    world = { ...world, [call.server]: state };
    worlds.push(world);
  }
  return worlds;
}

/**
 * Rebuilds the world after every commit from the initial state and the record's `changes`, and
 * checks that the last one is the run's final state (a record from another run, or one cut short,
 * would rebuild a different world). When the check can be made from the keys the commits
 * changed (`history-check.ts`), the worlds are rebuilt only when a commit's `world` is first
 * read (milestones, `never`), so a judge that needs none copies no entity.
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
  const ordered = inCommitOrder(committed);
  const commitOf = (call: JudgedCall, changes: EntityPatches, number: number) => ({ number, call, fake: call.server, entities: Object.keys(changes), changes });
  if (
    rebuildsFinal(
      initial,
      final,
      ordered.map(({ call, changes }) => ({ fake: call.server, changes })),
    )
  ) {
    let worlds: StatesByFake[] | undefined;
    const rebuilt = (): StatesByFake[] => {
      if (worlds) return worlds;
      const made = rebuildWorlds(initial, ordered);
      // The check applied the same changes to the same keys: they apply to the whole worlds too.
      if (typeof made === "string") throw new Error(`[eval-simulate] ${made}`);
      return (worlds = made);
    };
    const commits = ordered.map(({ call, changes }, i) =>
      Object.defineProperty(commitOf(call, changes, i + 1), "world", { enumerable: true, get: () => rebuilt()[i] }),
    ) as Commit[];
    return { ok: true, initial, commits };
  }
  const worlds = rebuildWorlds(initial, ordered);
  if (typeof worlds === "string") return { ok: false, reason: worlds };
  const world = worlds.at(-1) ?? initial;
  for (const id of new Set([...Object.keys(world), ...Object.keys(final)])) {
    for (const entity of new Set([...Object.keys(world[id] ?? {}), ...Object.keys(final[id] ?? {})])) {
      if (!sameJson(world[id]?.[entity], final[id]?.[entity])) {
        const hint = committed.length === 0 && calls.length > 0 ? " (the record carries no changes: was it written by an older eval-simulate?)" : "";
        return { ok: false, reason: `the record's changes rebuild a world whose ${id}.${entity} differs from the final state${hint}` };
      }
    }
  }
  return { ok: true, initial, commits: ordered.map(({ call, changes }, i) => ({ ...commitOf(call, changes, i + 1), world: worlds[i] })) };
}
