import type { Commit } from "../runtime/index.js";
import { entityPatches } from "../../core/record/index.js";

/**
 * The fields a committed call's record line gains: `commit` (its number in this run, so a judge
 * can apply commits in the order they happened even when two lines were written out of order)
 * and `changes`, a compact patch per written entity (`eval-simulate/verify`'s entity patches).
 * State values are written as the state file holds them, unredacted, so the judge can rebuild
 * every world of the run from the initial state. Made only when a record is kept.
 *
 * @example appendJsonLine(file, { server, tool, args, result, ...recordedChanges(outcome.commit) });
 */
export function recordedChanges(commit: Commit | undefined): { commit?: number; changes?: ReturnType<typeof entityPatches> } {
  if (!commit) return {};
  return { commit: commit.seq, changes: entityPatches(commit.before, commit.after, commit.keys) ?? {} };
}
