/**
 * Secrets known by their shape, whatever name they stand under (or none: a value in free text):
 * keys with a provider's prefix (`sk-…`, `ghp_…`, `github_pat_…`, `xoxb-…`, `AKIA…`, Stripe's
 * `sk_live_…`), PEM private key blocks, JWTs, and the credentials after `Bearer`. Ordinary values
 * that happen to share a prefix (`task-42`, `sk-learn-tutorial`, a base64 image) are not secrets:
 * a shape must start at a word boundary, be long enough, and look random where the provider's
 * keys are random.
 *
 * The text is scanned once: one regular expression without repetition finds the candidates, and
 * each is read forwards over its alphabet. A rejected candidate is skipped to the end of what was
 * read (no shape starts inside a run of its own alphabet), so nothing is read twice and a text of
 * any length costs linear time.
 */

/** Every place a shape may start; the characters after the prefix are checked by its reader. */
const CANDIDATE = /[AbBegrsx](?:k[-_]|h[pousr]_|ithub_pat_|ox[a-z]-|[KS]IA|yJ|earer[ \t]|EARER[ \t])/g;
/** PEM blocks are found on their own: their dashes may follow any character. */
const PEM_BEGIN = "-----BEGIN ";
/** No shape is shorter than this: shorter texts are not searched. */
const SHORTEST = 15;

const isDigit = (c: number) => c >= 48 && c <= 57;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isAlnum = (c: number) => isDigit(c) || isUpper(c) || isLower(c);
/** Keys' and base64url's alphabet: letters, digits, `_` and `-`. */
const isKeyChar = (c: number) => isAlnum(c) || c === 95 || c === 45;
/** RFC 6750's b64token, before its `=` padding: letters, digits, `-._~+/`. */
const isTokenChar = (c: number) => isKeyChar(c) || c === 46 || c === 126 || c === 43 || c === 47;

/** A shape found (its span), or how far its reader read before rejecting it. */
type Read = [start: number, end: number] | number;

/** The end of the run of `accept` characters starting at `from`. */
function runEnd(text: string, from: number, accept: (c: number) => boolean): number {
  let at = from;
  while (at < text.length && accept(text.charCodeAt(at))) at++;
  return at;
}

/** Whether a run holds a digit or a capital: random keys do, `sk-learn-tutorial` does not. */
function looksRandom(text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) {
    const c = text.charCodeAt(at);
    if (isDigit(c) || isUpper(c)) return true;
  }
  return false;
}

/** A key: `prefix` then at least `min` characters of `accept` (and a digit or capital when `random`). */
function prefixedKey(text: string, at: number, prefix: number, min: number, accept: (c: number) => boolean, random: boolean): Read {
  const end = runEnd(text, at + prefix, accept);
  const body = at + prefix;
  // The run may go on in the keys' alphabet (`ghp_…-x`): the secret is all of it.
  const whole = end === text.length ? end : runEnd(text, end, isKeyChar);
  if (end - body >= min && (!random || looksRandom(text, body, end))) return [at, whole];
  return whole;
}

/** `AKIA` or `ASIA` and 16 capitals or digits, standing alone: an AWS access key id. */
function awsKey(text: string, at: number): Read {
  const end = runEnd(text, at + 4, (c) => isUpper(c) || isDigit(c));
  if (end - at === 20 && (end === text.length || !isAlnum(text.charCodeAt(end)))) return [at, end];
  return runEnd(text, at, isKeyChar);
}

/** `header.payload.signature`, the first two base64url JSON objects (`eyJ…`, `ey…`). */
function jwt(text: string, at: number): Read {
  if (at > 0 && text.charCodeAt(at - 1) === 46) return runEnd(text, at, isKeyChar);
  const header = runEnd(text, at, isKeyChar);
  if (header - at < 10 || text.charCodeAt(header) !== 46 || !text.startsWith("ey", header + 1)) return header;
  const payload = runEnd(text, header + 1, isKeyChar);
  if (payload - header - 1 < 10 || text.charCodeAt(payload) !== 46) return payload;
  return [at, runEnd(text, payload + 1, isKeyChar)];
}

/** A PEM block whose label says PRIVATE KEY, through its END line (or the end of a cut text). */
function pemBlock(text: string, at: number): Read {
  const labelStart = at + PEM_BEGIN.length;
  const labelEnd = runEnd(text, labelStart, (c) => isUpper(c) || isDigit(c) || c === 32);
  if (labelEnd - labelStart > 64 || !text.startsWith("-----", labelEnd) || !text.slice(labelStart, labelEnd).includes("PRIVATE KEY")) return labelEnd;
  const end = text.indexOf("-----END ", labelEnd);
  if (end < 0) return [at, text.length];
  const endLabel = runEnd(text, end + "-----END ".length, (c) => isUpper(c) || isDigit(c) || c === 32);
  return [at, text.startsWith("-----", endLabel) ? endLabel + 5 : endLabel];
}

/** The credentials after `Bearer ` (the scheme is kept): long, or with a digit, so prose stays. */
function bearer(text: string, at: number): Read {
  let start = at + 6;
  for (let spaces = 0; spaces < 8 && (text[start] === " " || text[start] === "\t"); spaces++) start++;
  let end = runEnd(text, start, isTokenChar);
  const length = end - start;
  while (text[end] === "=") end++;
  if (length >= 20 || (length >= 8 && looksDigit(text, start, start + length))) return [start, end];
  return end;
}

/** Whether a run holds a digit. */
function looksDigit(text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (isDigit(text.charCodeAt(at))) return true;
  return false;
}

/** Whether `text` holds `word` at `at`, in any case. */
const caseless = (text: string, at: number, word: string) => text.slice(at, at + word.length).toLowerCase() === word;

/** The shape a candidate names, read from `at`; a candidate that names none is passed over. */
function readShape(text: string, at: number): Read {
  // No shape starts inside a word of keys' characters: `task-42`, `desk-lamp`, `xAKIA…`.
  if (at > 0 && isKeyChar(text.charCodeAt(at - 1))) return at + 1;
  const next = text.charCodeAt(at + 1);
  switch (text[at]) {
    case "s":
    case "r":
      if (text[at] === "s" && text.startsWith("k-", at + 1)) return prefixedKey(text, at, 3, 20, isKeyChar, true);
      if (text.startsWith("k_live_", at + 1) || text.startsWith("k_test_", at + 1)) return prefixedKey(text, at, 8, 16, isAlnum, false);
      return at + 1;
    case "g":
      if (text.startsWith("github_pat_", at)) return prefixedKey(text, at, 11, 20, (c) => isAlnum(c) || c === 95, false);
      if (next === 104 && "pousr".includes(text[at + 2]) && text[at + 3] === "_") return prefixedKey(text, at, 4, 30, isAlnum, false);
      return at + 1;
    case "x":
      if (text.startsWith("ox", at + 1) && isLower(text.charCodeAt(at + 3)) && text[at + 4] === "-")
        return prefixedKey(text, at, 5, 10, (c) => isAlnum(c) || c === 45, true);
      return at + 1;
    case "A":
      return text.startsWith("KIA", at + 1) || text.startsWith("SIA", at + 1) ? awsKey(text, at) : at + 1;
    case "e":
      return next === 121 && text[at + 2] === "J" ? jwt(text, at) : at + 1;
    default:
      return caseless(text, at, "bearer") && (text[at + 6] === " " || text[at + 6] === "\t") ? bearer(text, at) : at + 1;
  }
}

/**
 * Adds the span of each secret shape in `text` to `spans`, in order: a whole key, JWT or PEM
 * block, or the credentials after `Bearer`.
 *
 * @example const spans: Array<[number, number]> = []; secretShapes("use sk-proj-Ab12Cd34Ef56Gh78Ij90 now", spans); // [[4, 32]]
 */
export function secretShapes(text: string, spans: Array<[number, number]>): void {
  if (text.length < SHORTEST) return;
  const first = spans.length;
  CANDIDATE.lastIndex = 0;
  for (let match = CANDIDATE.exec(text); match !== null; match = CANDIDATE.exec(text)) {
    const read = readShape(text, match.index);
    if (typeof read !== "number") spans.push(read);
    // What a reader read holds no other shape's start: it is never read again.
    CANDIDATE.lastIndex = Math.max(CANDIDATE.lastIndex, typeof read === "number" ? read : read[1]);
  }
  const keys = spans.length;
  for (let at = text.indexOf(PEM_BEGIN); at >= 0; at = text.indexOf(PEM_BEGIN, at + 1)) {
    const read = pemBlock(text, at);
    if (typeof read === "number") continue;
    spans.push(read);
    // A block without its END line runs to the end of the text: nothing is left to search.
    if (read[1] >= text.length) break;
    at = read[1] - 1;
  }
  if (spans.length > keys && keys > first) {
    const found = spans.splice(first).sort((a, b) => a[0] - b[0]);
    spans.push(...found);
  }
}
