/**
 * The entities a JSONata expression names through a binding: `$state.tasks`, `$world.crm.deals`,
 * `` $final.crm.`a name` ``, read from the source text (as `$args.<name>` reads are), each with the
 * offset of its first name, so a check can point at a misspelt entity before anything runs.
 */

/** One `$<variable>.<name>[.<name>]` in an expression's source. */
export interface VariableSteps {
  variable: string;
  /** The names after the variable, one or two (as many as asked for and written). */
  names: string[];
  /** Where each name starts in the source. */
  offsets: number[];
}

const NAME = "(?:[A-Za-z_][\\w]*|`[^`]+`)";

/**
 * Every `$<variable>.<name>` (depth 1) or `$<variable>.<name>.<name>` (depth 2: a fake, then its
 * entity) in `source`, for the variables given; names in backquotes are unquoted.
 *
 * @example variableSteps("$count($state.taks)", ["state"], 1) // [{ variable: "state", names: ["taks"], offsets: [14] }]
 */
export function variableSteps(source: string, variables: readonly string[], depth: 1 | 2): VariableSteps[] {
  const pattern = new RegExp(`(?<![\\w$])\\$(${variables.join("|")})((?:\\.${NAME}){1,${depth}})`, "g");
  const found: VariableSteps[] = [];
  for (const match of source.matchAll(pattern)) {
    const start = (match.index ?? 0) + 1 + match[1]!.length;
    const steps = [...match[2]!.matchAll(new RegExp(`\\.(${NAME})`, "g"))];
    found.push({
      variable: match[1]!,
      names: steps.map((step) => (step[1]!.startsWith("`") ? step[1]!.slice(1, -1) : step[1]!)),
      offsets: steps.map((step) => start + (step.index ?? 0) + 1 + (step[1]!.startsWith("`") ? 1 : 0)),
    });
  }
  return found;
}
