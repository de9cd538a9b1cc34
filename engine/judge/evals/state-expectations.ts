import type { EvalCase } from "../../../schema/evals/evals.js";
import { sameJson } from "../../core/record/index.js";
import type { StatesByFake } from "../../core/record/index.js";
import type { FakeMaps } from "./fake-maps.js";
import type { History } from "./history.js";
import { mismatches, show, showExpected, showSeen } from "./match-value.js";
import { changedFields, type RecordDiff, recordDiff } from "./state-diff.js";
import { type AssertionResult, failed, notEvaluated, passed } from "./types.js";

type StateExpect = NonNullable<EvalCase["expect"]["state"]>;
type DiffExpect = NonNullable<StateExpect["diff"]>[string];

const valueOf = (states: StatesByFake, ref: string) => {
  const [fake, entity] = ref.split(".");
  return states[fake]?.[entity];
};

/** The commits that changed an entity, as evidence: `#2 (call #3 tickets/close-ticket)`. */
function commitsTouching(history: History, ref: string): string[] {
  if (!history.ok) return [];
  const [fake, entity] = ref.split(".");
  return history.commits
    .filter((c) => c.fake === fake && c.entities.includes(entity))
    .map((c) => `commit #${c.number} (call #${c.call.number} ${c.call.server}/${c.call.tool})`);
}

/** Every `<fake>.<entity>` whose final value differs from its initial one. */
export function changedRefs(initial: StatesByFake, final: StatesByFake): string[] {
  const out: string[] = [];
  for (const id of new Set([...Object.keys(initial), ...Object.keys(final)])) {
    for (const entity of new Set([...Object.keys(initial[id] ?? {}), ...Object.keys(final[id] ?? {})])) {
      if (!sameJson(initial[id]?.[entity], final[id]?.[entity])) out.push(`${id}.${entity}`);
    }
  }
  return out.sort();
}

/**
 * `state`: `changed`, `unchanged`, `only` (no collateral damage), `readOnly` (pre == post), and
 * `diff` (records added, removed and updated, matched partially). `assert` is judged with the
 * JSONata expectations.
 *
 * @example judgeState(expect.state, run.initial, run.final, maps, history)
 */
export function judgeState(state: StateExpect, initial: StatesByFake, final: StatesByFake, maps: FakeMaps, history: History): AssertionResult[] {
  const results: AssertionResult[] = [];
  const changed = changedRefs(initial, final);
  const known = new Set(maps.entities);
  const unknown = (ref: string) => (known.has(ref) ? undefined : notEvaluated("state", `state ${ref}`, `no fake has an entity ${ref}`));
  for (const ref of state.changed ?? []) {
    const bad = unknown(ref);
    if (bad) results.push(bad);
    else if (changed.includes(ref))
      results.push(passed("state", `state.changed ${ref}`, `${ref} changed (${commitsTouching(history, ref).join(", ") || "commits not recorded"})`));
    else {
      const touched = commitsTouching(history, ref);
      results.push(
        failed(
          "state",
          `state.changed ${ref}`,
          `${ref} did not change${touched.length > 0 ? `: it was changed and changed back (${touched.join(", ")})` : ""}`,
          { commits: touched },
        ),
      );
    }
  }
  for (const ref of state.unchanged ?? []) {
    const bad = unknown(ref);
    if (bad) results.push(bad);
    else if (!changed.includes(ref)) {
      const touched = commitsTouching(history, ref);
      const note = touched.length > 0 ? ` at the end (changed and changed back within the run: ${touched.join(", ")}; forbid that with \`never\`)` : "";
      results.push(passed("state", `state.unchanged ${ref}`, `${ref} is unchanged${note}`, touched.length > 0 ? { commits: touched } : undefined));
    } else {
      const diff = recordDiff(valueOf(initial, ref), valueOf(final, ref));
      results.push(
        failed(
          "state",
          `state.unchanged ${ref}`,
          `${ref} changed (${commitsTouching(history, ref).join(", ") || "commits not recorded"})${diff ? `: ${summary(diff)}` : ""}`,
          diff ?? { before: valueOf(initial, ref), after: valueOf(final, ref) },
        ),
      );
    }
  }
  if (state.only) {
    // The entities a `diff` names are expected to change as much as those `changed` lists.
    const allowed = new Set([...(state.changed ?? []), ...Object.keys(state.diff ?? {})]);
    const collateral = changed.filter((ref) => !allowed.has(ref));
    results.push(
      collateral.length === 0
        ? passed("state", "state.only", `only ${[...allowed].join(", ") || "nothing"} changed`)
        : failed(
            "state",
            "state.only",
            `collateral damage: ${collateral.map((ref) => `${ref} (${commitsTouching(history, ref).join(", ") || "changed"})`).join("; ")} changed outside ${[...allowed].join(", ") || "(none listed)"}`,
            { changed: collateral },
          ),
    );
  }
  if (state.readOnly) {
    results.push(
      changed.length === 0
        ? passed("state", "state.readOnly", "the final world equals the initial one")
        : failed("state", "state.readOnly", `the run changed ${changed.join(", ")}; a read-only task must leave the world as it was`, { changed }),
    );
  }
  for (const [ref, expected] of Object.entries(state.diff ?? {})) {
    const bad = unknown(ref);
    results.push(bad ?? judgeDiff(ref, expected, valueOf(initial, ref), valueOf(final, ref)));
  }
  return results;
}

/** `added "a"; removed "b"; updated "c" (status, total)`: the records by key, the updated ones with their changed fields. */
function summary(diff: RecordDiff): string {
  const keys = (list: unknown[]) => list.map((k) => show(k)).join(", ");
  return [
    diff.addedKeys.length ? `added ${keys(diff.addedKeys)}` : "",
    diff.removedKeys.length ? `removed ${keys(diff.removedKeys)}` : "",
    diff.updated.length ? `updated ${diff.updated.map((u) => `${show(u.key)} (${changedFields(u.before, u.after).join(", ")})`).join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

/** Each listed kind one-to-one: every entry matches a distinct record, and every record an entry. */
function judgeDiff(ref: string, expected: DiffExpect, before: unknown, after: unknown): AssertionResult {
  const diff = recordDiff(before, after, expected.key ?? "id");
  const label = `state.diff ${ref}`;
  if (!diff)
    return failed(
      "diff",
      label,
      `${ref} is neither an array of records with unique "${expected.key ?? "id"}" keys nor an object of records keyed by id, so it has no record diff`,
    );
  const problems: string[] = [];
  for (const kind of ["added", "removed", "updated"] as const) {
    const entries = expected[kind];
    if (!entries) continue;
    const records = kind === "updated" ? diff.updated.map((u) => u.after) : diff[kind];
    const names = kind === "updated" ? diff.updated.map((u) => u.key) : kind === "added" ? diff.addedKeys : diff.removedKeys;
    const free = new Set(records.map((_, i) => i));
    for (const entry of entries) {
      const hit = [...free].find((i) => mismatches(entry, records[i]).length === 0);
      if (hit !== undefined) {
        free.delete(hit);
        continue;
      }
      // The nearest record of this kind, by fewest differing fields, says what was there instead.
      let nearest: { i: number; found: ReturnType<typeof mismatches> } | undefined;
      for (const i of free) {
        const found = mismatches(entry, records[i]);
        if (!nearest || found.length < nearest.found.length) nearest = { i, found };
      }
      const near = nearest ? `; the nearest, record ${show(names[nearest.i])}, has ${showSeen(nearest.found)}` : `; no record was ${kind}`;
      problems.push(`expected a record ${kind} matching ${showExpected(entry)}${near}`);
    }
    for (const i of free) problems.push(`record ${show(names[i])} was ${kind} unexpectedly`);
  }
  const evidence = { added: diff.added, removed: diff.removed, updated: diff.updated };
  return problems.length === 0
    ? passed("diff", label, `${ref}: ${summary(diff) || "no records changed"}`, evidence)
    : failed("diff", label, `${ref}: ${problems.join("; ")}`, evidence);
}
