/**
 * Where in an expression's source a jsonata error points. jsonata reports one `position` per
 * error, and what it means depends on the error: usually the offset just past the offending
 * token, after the call's `(` for a function, the token's start for a bad number, the end of the
 * source for an unterminated string. Its `token` is the token's value, not its text (a string
 * literal without quotes, a variable without `$`). A caller maps the span to a line and column of
 * the manifest, so the span starts where the bad token starts.
 */

/** A range of an expression's source, in UTF-16 code units (as JavaScript indexes strings). */
export interface SourceSpan {
  offset: number;
  length: number;
}

const QUOTES = new Set(['"', "'", "`"]);

/**
 * The span of the token a jsonata error (`{ code, position, token }`) points at, or undefined
 * when the error carries no position.
 *
 * @example errorSpan("foo bar", { code: "S0201", position: 7, token: "bar" }) // { offset: 4, length: 3 }
 */
export function errorSpan(source: string, error: { code?: unknown; position?: unknown; token?: unknown }): SourceSpan | undefined {
  if (typeof error.position !== "number" || !Number.isFinite(error.position)) return undefined;
  const position = Math.min(Math.max(0, Math.trunc(error.position)), source.length);
  const token = typeof error.token === "string" || typeof error.token === "number" ? String(error.token) : undefined;
  if (token === "(end)") return { offset: Math.min(position, source.trimEnd().length), length: 0 };
  if (token === undefined || token === "") return unterminatedSpan(source, error.code, position);
  return tokenSpan(source, token, position);
}

function tokenSpan(source: string, token: string, position: number): SourceSpan {
  // Just past the token: the usual case.
  if (source.slice(position - token.length, position) === token) return withDollar(source, position - token.length, position);
  // At the token's start: numbers out of range, bad escapes.
  if (source.startsWith(token, position)) return { offset: position, length: token.length };
  // Past a function's name and its `(`: runtime errors of calls.
  let end = position;
  while (end > 0 && /[\s(]/.test(source[end - 1]!)) end--;
  if (end < position && source.slice(end - token.length, end) === token) return withDollar(source, end - token.length, end);
  // A quoted token (string literal, `name`): its value differs from its text, so find the opening quote.
  const quote = source[position - 1];
  if (quote !== undefined && QUOTES.has(quote)) {
    const open = openingQuote(source, position - 1, quote);
    if (open >= 0) return { offset: open, length: position - open };
  }
  // Elsewhere before the position (the operand of `@` is reported past the right side).
  const earlier = source.lastIndexOf(token, position - token.length);
  if (earlier >= 0) return withDollar(source, earlier, earlier + token.length);
  return { offset: Math.max(0, position - token.length), length: Math.min(token.length, position) };
}

/** Variables and function names are reported without their `$`; the span includes it. */
function withDollar(source: string, start: number, end: number): SourceSpan {
  const offset = start > 0 && source[start - 1] === "$" ? start - 1 : start;
  return { offset, length: end - offset };
}

/** The index of the quote opening the literal closed at `close`, skipping escaped quotes. */
function openingQuote(source: string, close: number, quote: string): number {
  for (let i = close - 1; i >= 0; i--) {
    if (source[i] !== quote) continue;
    let backslashes = 0;
    while (i - backslashes - 1 >= 0 && source[i - backslashes - 1] === "\\") backslashes++;
    if (backslashes % 2 === 0) return i;
  }
  return -1;
}

/**
 * Lexer errors carry no token and point at where the lexer gave up: for an unterminated string,
 * quoted name or regex that is the end of the source, so point at the literal's opening instead.
 */
function unterminatedSpan(source: string, code: unknown, position: number): SourceSpan {
  if (code === "S0101" || code === "S0105") {
    const open = unterminatedQuote(source, code === "S0105" ? ["`"] : ['"', "'"]);
    if (open >= 0) return { offset: open, length: source.trimEnd().length - open };
  }
  if (code === "S0302") {
    const open = source.lastIndexOf("/", position - 1);
    if (open >= 0) return { offset: open, length: source.trimEnd().length - open };
  }
  return { offset: position, length: 0 };
}

/** The start of the quoted literal still open at the end of the source, or -1. */
function unterminatedQuote(source: string, opening: string[]): number {
  let open = -1;
  let quote = "";
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (open >= 0) {
      if (char === "\\") i++;
      else if (char === quote) open = -1;
    } else if (char === "/" && source[i + 1] === "*") {
      const close = source.indexOf("*/", i + 2);
      if (close < 0) return -1;
      i = close + 1;
    } else if (QUOTES.has(char)) {
      open = opening.includes(char) ? i : -1;
      quote = char;
      if (open < 0) {
        // A literal of another kind: skip to its end.
        const close = source.indexOf(char, i + 1);
        if (close < 0) return -1;
        i = close;
      }
    }
  }
  return open;
}
