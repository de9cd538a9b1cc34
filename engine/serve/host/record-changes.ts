import type { Commit } from "../runtime/index.js";
import { type EntityPatches, entityPatches } from "../../core/record/index.js";

// A commit's patches are made once, whether the record line, the state log or both want them.
const patchesOf = new WeakMap<Commit, EntityPatches>();

/**
 * The patch per written entity a commit made (empty when nothing changed in value), computed once
 * per commit: the record line's `changes` and the state log's line are the same patches.
 *
 * @example durable.append(fake, commitPatches(commit));
 */
export function commitPatches(commit: Commit): EntityPatches {
  let patches = patchesOf.get(commit);
  if (patches === undefined) {
    patches = entityPatches(commit.before, commit.after, commit.keys) ?? {};
    patchesOf.set(commit, patches);
  }
  return patches;
}

/**
 * The fields a committed call's record line gains: `commit` (its number in this run, so a judge
 * can apply commits in the order they happened even when two lines were written out of order)
 * and `changes`, a compact patch per written entity (`eval-simulate/verify`'s entity patches).
 * State values are written as the state file holds them, unredacted, so the judge can rebuild
 * every world of the run from the initial state. Made only when a record is kept.
 *
 * @example appendJsonLine(file, { server, tool, args, result, ...recordedChanges(outcome.commit) });
 */
export function recordedChanges(commit: Commit | undefined): { commit?: number; changes?: EntityPatches } {
  if (!commit) return {};
  return { commit: commit.seq, changes: commitPatches(commit) };
}
