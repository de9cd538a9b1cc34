/**
 * Milestones: predicates over the world that must each become true at some commit, ordered as a
 * list (today's default), in any order (`order: any`), or as a graph (`after: [names]`). A list is
 * the chain graph, so one rule judges all three: a milestone passes when it was reached and no
 * milestone it comes after (directly or through others) was first reached at a later commit.
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import type { StatesByFake } from "../../core/record/index.js";
import { evaluateBounded, type SharedFunctions } from "./expressions.js";
import type { Commit, History } from "./history.js";
import { type AssertionResult, failed, passed } from "./types.js";
import { touches, worldDependencies } from "./world-dependencies.js";

type MilestonesDoc = NonNullable<EvalCase["expect"]["milestones"]>;
export type Milestone = Extract<MilestonesDoc, readonly unknown[]>[number];

/** The milestones as a list, how they are ordered, and what each one comes after (indices). */
export interface MilestonePlan {
  list: readonly Milestone[];
  order: "listed" | "any" | "graph";
  after: number[][];
}

/**
 * Reads `milestones` in either form: a list is `listed` unless a milestone names what it comes
 * `after` (then the graph alone orders them); `{ order: any }` orders only by `after`. Names
 * `after` does not know are left out here: `validate` reports them.
 *
 * @example milestonePlan([{ name: "a", jsonata: "…" }, { name: "b", jsonata: "…" }]).after // [[], [0]]
 */
export function milestonePlan(milestones: MilestonesDoc | undefined): MilestonePlan {
  const list = milestones === undefined ? [] : Array.isArray(milestones) ? milestones : milestones.list;
  const declared = Array.isArray(milestones) ? undefined : milestones?.order;
  const graph = list.some((m) => m.after !== undefined);
  const order = graph ? "graph" : (declared ?? "listed");
  const index = new Map(list.map((m, i) => [m.name, i]));
  const after = list.map((m, i) => {
    if (order === "listed") return i === 0 ? [] : [i - 1];
    return (m.after ?? []).flatMap((name) => (index.has(name) && index.get(name) !== i ? [index.get(name)!] : []));
  });
  return { list, order, after };
}

/** Every milestone a milestone comes after, directly or through others. */
function ancestors(plan: MilestonePlan, i: number): number[] {
  const seen = new Set<number>();
  const stack = [...plan.after[i]];
  while (stack.length > 0) {
    const j = stack.pop()!;
    if (seen.has(j) || j === i) continue;
    seen.add(j);
    stack.push(...plan.after[j]);
  }
  return [...seen];
}

export const where = (commit: Commit) => `commit #${commit.number} (call #${commit.call.number} ${commit.call.server}/${commit.call.tool})`;

type At = (world: StatesByFake, commit?: Commit) => Record<string, unknown>;

/** The first commit at which a milestone holds, or why it cannot be told. */
async function firstReached(
  m: Milestone,
  history: Extract<History, { ok: true }>,
  at: At,
  functions: SharedFunctions,
): Promise<{ reached?: Commit; error?: string }> {
  const deps = worldDependencies(m.jsonata);
  // A commit that touches nothing the predicate reads leaves its value as it was.
  let last = deps ? await evaluateBounded(m.jsonata, history.initial, at(history.initial), functions) : undefined;
  for (const commit of history.commits) {
    const out =
      last && !touches(deps, commit.fake, commit.entities) ? last : await evaluateBounded(m.jsonata, commit.world, at(commit.world, commit), functions);
    last = out;
    if (!out.ok) return { error: `the expression failed at ${where(commit)}: ${out.message}` };
    if (out.truthy) return { reached: commit };
  }
  return {};
}

/**
 * Judges the milestones over a rebuilt history: one result each, passed when reached in an
 * order the plan allows.
 *
 * @example await judgeMilestones(milestonePlan(expect.milestones), history, at)
 */
export async function judgeMilestones(
  plan: MilestonePlan,
  history: Extract<History, { ok: true }>,
  at: At,
  functions: SharedFunctions = {},
): Promise<AssertionResult[]> {
  const found: Array<{ reached?: Commit; error?: string }> = [];
  for (const m of plan.list) found.push(await firstReached(m, history, at, functions));
  return plan.list.map((m, i) => {
    const label = `milestones[${i}] ${m.name}`;
    const { reached, error } = found[i];
    if (error) return failed("milestone", label, error);
    if (!reached)
      return failed("milestone", label, `never became true (${history.commits.length} commit${history.commits.length === 1 ? "" : "s"} in the run)`, {
        commits: history.commits.length,
      });
    // The one reached latest among those it comes after is the one it overtook.
    let overtaken: number | undefined;
    for (const j of ancestors(plan, i)) {
      const other = found[j].reached;
      if (other && other.number > reached.number && (overtaken === undefined || other.number > found[overtaken].reached!.number)) overtaken = j;
    }
    if (overtaken === undefined) return passed("milestone", label, `reached at ${where(reached)}`, { commit: reached.number, call: reached.call.number });
    const before = found[overtaken].reached!;
    const rule = plan.order === "listed" ? "the milestones must happen in the listed order" : `it comes after "${plan.list[overtaken].name}"`;
    return failed("milestone", label, `became true at ${where(reached)}, before "${plan.list[overtaken].name}" (${where(before)}); ${rule}`, {
      commit: reached.number,
      before: before.number,
    });
  });
}
