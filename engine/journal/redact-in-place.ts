/**
 * Redaction of JSON text without re-serialising it: each secret member's value is replaced by
 * `"[REDACTED]"` where it stands, so the evidence keeps every other byte the client received
 * (indentation, key order, number spellings).
 */

/** The index just past the string starting at `start` (a `"`). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) i += 2;
    else if (c === 34 /* " */) return i + 1;
    else i++;
  }
  return i;
}

/** The index just past the JSON value starting at `start`. */
function valueEnd(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first === "{" || first === "[") {
    let depth = 0;
    let i = start;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i = stringEnd(text, i);
        continue;
      }
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  let i = start;
  while (i < text.length && !",}] \n\r\t".includes(text[i])) i++;
  return i;
}

/**
 * Valid JSON text with the value of every member whose name is a secret (and not null)
 * replaced by `"[REDACTED]"` in place, at any depth; everything else is left byte for byte.
 * The text must be valid JSON (parse it first).
 *
 * @example redactJsonText('{\n  "token": "t",\n  "a": 1\n}', (k) => k === "token"); // '{\n  "token": "[REDACTED]",\n  "a": 1\n}'
 */
export function redactJsonText(text: string, isSecret: (name: string) => boolean): string {
  let out = "";
  let copied = 0;
  const stack: string[] = [];
  let expectKey = false;
  let key: string | undefined;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (expectKey && stack[stack.length - 1] === "{") {
        key = JSON.parse(text.slice(i, end)) as string;
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === ":") {
      let j = i + 1;
      while (j < text.length && " \n\r\t".includes(text[j])) j++;
      if (key !== undefined && isSecret(key) && !text.startsWith("null", j)) {
        const end = valueEnd(text, j);
        out += `${text.slice(copied, j)}"[REDACTED]"`;
        copied = end;
        i = end;
      } else i = j;
      key = undefined;
      continue;
    }
    if (c === "{") {
      stack.push("{");
      expectKey = true;
    } else if (c === "[") stack.push("[");
    else if (c === "}" || c === "]") stack.pop();
    else if (c === ",") expectKey = stack[stack.length - 1] === "{";
    i++;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
