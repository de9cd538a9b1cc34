/**
 * Where a JSON text stops being JSON. `JSON.parse` says what went wrong with a snippet of the
 * text (which a diagnostic must not echo: the file may hold anything) and, on Node 20, not where;
 * this scanner finds the character offset, in linear time and without recursion, so a data file's
 * syntax error can be shown at its line and column.
 */

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

/**
 * The offset of the first character that makes `text` invalid JSON, or undefined when it is valid.
 *
 * @example jsonErrorOffset('{"a": 1,}') // 8
 */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  // What the scanner expects next inside each open container.
  const stack: Array<"array" | "object"> = [];
  const skip = () => {
    while (i < text.length && WHITESPACE.has(text[i])) i++;
  };
  const string = (): boolean => {
    if (text[i] !== '"') return false;
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const next = text[i + 1];
        if (next === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return false;
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else return false;
      } else i++;
    }
    return false;
  };
  const scalar = (): boolean => {
    const rest = text.slice(i, i + 5);
    for (const word of ["true", "false", "null"]) {
      if (rest.startsWith(word)) {
        i += word.length;
        return true;
      }
    }
    const number = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    number.lastIndex = 0;
    const match = number.exec(text.slice(i, i + 400));
    if (!match || match[0] === "" || match[0] === "-") return false;
    i += match[0].length;
    return true;
  };

  /**
   * Reads one value: a scalar or a string whole, or an opening bracket (its contents are read by
   * the loop below, so nesting never deepens the call stack). `first` is set when a container
   * opened and its first entry is next.
   */
  let first = false;
  const value = (): boolean => {
    skip();
    const c = text[i];
    if (c === "{" || c === "[") {
      i++;
      skip();
      if (text[i] === (c === "{" ? "}" : "]")) {
        i++;
        return true;
      }
      stack.push(c === "{" ? "object" : "array");
      first = true;
      return true;
    }
    if (c === '"') return string();
    return scalar();
  };
  const member = (): boolean => {
    skip();
    if (!string()) return false;
    skip();
    if (text[i] !== ":") return false;
    i++;
    return value();
  };

  if (!value()) return Math.min(i, text.length);
  for (;;) {
    const open = stack[stack.length - 1];
    if (first) {
      first = false;
      if (!(open === "object" ? member() : value())) return Math.min(i, text.length);
      continue;
    }
    skip();
    if (open === undefined) return i < text.length ? i : undefined;
    const close = open === "object" ? "}" : "]";
    if (text[i] === close) {
      i++;
      stack.pop();
      continue;
    }
    if (text[i] !== ",") return Math.min(i, text.length);
    i++;
    if (!(open === "object" ? member() : value())) return Math.min(i, text.length);
  }
}
