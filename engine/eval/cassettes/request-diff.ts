/**
 * How far a request is from each recorded one, and the diff a user reads when none matches: the
 * two normalised requests as indented JSON, compared line by line, the lines both share at the
 * start and end left out but for a little context. Bounded: past a few thousand lines in the
 * middle, the middle is shown removed and added whole rather than aligned.
 */
import type { NormalisedRequest } from "./normalised-request.js";

/** The most lines of a diff shown; the rest are counted. */
const DIFF_LINES = 60;
/** Lines of context kept around a change. */
const CONTEXT = 2;
/** Past this many cells, the middle is not aligned (a longest common subsequence is quadratic). */
const MAX_CELLS = 4_000_000;

const linesOf = (request: NormalisedRequest) => JSON.stringify(request, null, 2).split("\n");

/** The lines `a` and `b` share at their start and at their end. */
function shared(a: readonly string[], b: readonly string[]): { head: number; tail: number } {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { head, tail };
}

/**
 * How many lines differ between two requests (0: the same), for picking the nearest recording.
 *
 * @example distance(a, a) // 0
 */
export function distance(a: NormalisedRequest, b: NormalisedRequest): number {
  const x = linesOf(a);
  const y = linesOf(b);
  const { head, tail } = shared(x, y);
  return x.length - head - tail + (y.length - head - tail);
}

/** The middle lines as `-`/`+`/` ` lines, aligned when small enough. */
function middle(a: readonly string[], b: readonly string[]): string[] {
  if (a.length * b.length > MAX_CELLS) return [...a.map((l) => `- ${l}`), ...b.map((l) => `+ ${l}`)];
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) out.push(`  ${a[i++]}`), j++;
    else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  return out;
}

/**
 * The diff from a recorded request (`-`) to the one sent (`+`), at most DIFF_LINES lines.
 *
 * @example requestDiff(recorded, sent) // "  ...\n-       \"content\": \"Close T-101\"\n+       \"content\": \"Close T-102\"\n  ..."
 */
export function requestDiff(recorded: NormalisedRequest, sent: NormalisedRequest): string {
  const a = linesOf(recorded);
  const b = linesOf(sent);
  const { head, tail } = shared(a, b);
  const start = Math.max(0, head - CONTEXT);
  const lines = [
    ...(start > 0 ? ["  …"] : []),
    ...a.slice(start, head).map((l) => `  ${l}`),
    ...middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail, Math.min(a.length, a.length - tail + CONTEXT)).map((l) => `  ${l}`),
    ...(tail > CONTEXT ? ["  …"] : []),
  ];
  if (lines.length <= DIFF_LINES) return lines.join("\n");
  return [...lines.slice(0, DIFF_LINES), `  … ${lines.length - DIFF_LINES} more lines`].join("\n");
}
