/**
 * The checks of a case's grading beyond its schema: milestone graphs (known names, none after
 * itself, no cycle, no `after` in a listed order), minefields' and rubrics' expressions, rubric
 * names unique.
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import { suggestion } from "../../author/source/index.js";
import type { PathSegment, Report } from "../../author/source/index.js";

type Path = PathSegment[];
type CheckExpression = (report: Report, path: Path, source: unknown) => void;

/** A cycle among the `after` edges, as names in order, if there is one. */
function cycleIn(names: readonly string[], after: ReadonlyArray<readonly number[]>): string[] | undefined {
  const state = names.map(() => 0); // 0 unseen, 1 on the path, 2 done
  const path: number[] = [];
  const visit = (i: number): number[] | undefined => {
    state[i] = 1;
    path.push(i);
    for (const j of after[i]) {
      if (state[j] === 1) return [...path.slice(path.indexOf(j)), j];
      if (state[j] === 0) {
        const found = visit(j);
        if (found) return found;
      }
    }
    path.pop();
    state[i] = 2;
    return undefined;
  };
  for (const i of names.keys()) {
    if (state[i] !== 0) continue;
    const found = visit(i);
    if (found) return found.map((j) => names[j]);
  }
  return undefined;
}

function checkMilestones(report: Report, e: Path, milestones: EvalCase["expect"]["milestones"], checkExpression: CheckExpression): void {
  if (!milestones || typeof milestones !== "object") return;
  const list = Array.isArray(milestones) ? milestones : Array.isArray(milestones.list) ? milestones.list : [];
  const base: Path = Array.isArray(milestones) ? [...e, "milestones"] : [...e, "milestones", "list"];
  for (const [j, m] of list.entries()) checkExpression(report, [...base, j, "jsonata"], m?.jsonata);
  if (!list.some((m) => m?.after !== undefined)) return;
  if (!Array.isArray(milestones) && milestones.order === "listed") {
    report.error("E_CASE", [...e, "milestones", "order"], "`after` orders milestones as a graph, which a listed order would override", {
      hint: "Write order: any (or leave order out) to order them by `after` alone.",
    });
  }
  const names = list.map((m) => m?.name);
  const index = new Map<string, number>();
  for (const [j, name] of names.entries()) {
    if (typeof name !== "string") continue;
    if (index.has(name))
      report.error("E_CASE", [...base, j, "name"], `two milestones are named "${name}", so \`after\` cannot tell them apart`, {
        hint: "Give every milestone its own name.",
      });
    else index.set(name, j);
  }
  const known = [...index.keys()];
  const after = list.map((m, j) =>
    (Array.isArray(m?.after) ? m.after : []).flatMap((name, k) => {
      const at = [...base, j, "after", k];
      if (name === m.name) report.error("E_CASE", at, `milestone "${name}" comes after itself`);
      else if (!index.has(name))
        report.error("E_CASE", at, `no milestone is named "${name}".${suggestion(name, known)}`, { hint: `Milestones: ${known.join(", ")}.` });
      else return [index.get(name)!];
      return [];
    }),
  );
  const cycle = cycleIn(names.map(String), after);
  if (cycle)
    report.error("E_CASE", base, `the milestones come after each other in a circle: ${cycle.map((n) => `"${n}"`).join(" → ")}`, {
      hint: "Remove one `after` of the circle.",
    });
}

/**
 * Reports the grading problems of one case's `expect`.
 *
 * @example checkGrading(report, ["cases", 0, "expect"], c.expect, checkExpression)
 */
export function checkGrading(report: Report, e: Path, expect: EvalCase["expect"], checkExpression: CheckExpression): void {
  checkMilestones(report, e, expect.milestones, checkExpression);
  for (const [j, n] of (Array.isArray(expect.never) ? expect.never : []).entries()) checkExpression(report, [...e, "never", j, "jsonata"], n?.jsonata);
  const seen = new Set<string>();
  for (const [j, r] of (Array.isArray(expect.rubrics) ? expect.rubrics : []).entries()) {
    if (typeof r?.name === "string") {
      if (seen.has(r.name))
        report.error("E_CASE", [...e, "rubrics", j, "name"], `two rubrics are named "${r.name}"`, {
          hint: "Give every rubric of a case its own name: its judgments are cached by it.",
        });
      seen.add(r.name);
    }
    checkExpression(report, [...e, "rubrics", j, "context"], r?.context);
  }
}
