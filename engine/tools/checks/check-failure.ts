/**
 * How a check fails: one error naming every problem found, then what to change. Test runners
 * print the message as the failure; `eval-simulate check` prints it under the check's line.
 */

/**
 * A check that found problems: its message names each one and what to change.
 *
 * @example
 * try { await check.run(); } catch (error) { if (error instanceof CheckFailure) console.log(error.problems); }
 */
export class CheckFailure extends Error {
  override name = "CheckFailure";
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(message.startsWith("[eval-simulate]") ? message : `[eval-simulate] ${message}`);
  }
}

/**
 * Throws a CheckFailure when `problems` is not empty: the headline, each problem on its own
 * line, then the fix.
 *
 * @example failOn(["create-note writes notes but says readOnlyHint"], "crm's entity map is wrong", "Remove writes.");
 */
export function failOn(problems: readonly string[], headline: string, fix: string): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, 20);
  const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : "";
  throw new CheckFailure(`${headline}:\n${shown.map((p) => `  - ${p}`).join("\n")}${more}\nTo fix: ${fix}`, problems);
}

/** A value as a short JSON excerpt for a message. */
export function excerpt(value: unknown, limit = 120): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const quoted = JSON.stringify(text.length > limit ? `${text.slice(0, limit)}…` : text);
  return typeof value === "string" ? quoted : text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** The JSON text of a value, for comparing states as JSON values (false and 0 differ). */
export function jsonOf(value: unknown): string {
  return JSON.stringify(value) ?? "undefined";
}

/** The entities whose values differ between two states of one fake. */
export function changedEntities(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): string[] {
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...names].filter((name) => jsonOf(before?.[name]) !== jsonOf(after?.[name]));
}

/**
 * What a check returns when it could not check anything (or not everything): reported as not
 * checked (a skipped test, `○` in `eval-simulate check`), never as a pass.
 *
 * @example return new NotChecked("crm has no observations");
 */
export class NotChecked {
  constructor(readonly reason: string) {}
}
