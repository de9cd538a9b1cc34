/**
 * A regular expression runs inside one synchronous call that nothing can interrupt: no hook,
 * no timer, no signal. `/(a+)+$/` against 30 a's and a "!" backtracks for minutes and holds
 * every fake on the port. JSONata has only regex literals, so they are all known when the
 * manifest loads, and the classic shape of catastrophic backtracking is refused there: a
 * repeated group one of whose branches is made only of repeated or optional items, with some
 * repetition inside (`(a+)+`, `(\w+\s?)*`, `(x|y+)+`). Overlapping alternatives (`(a|a)+`) and
 * other polynomial cases are not detected.
 */

interface Scan {
  /** Some branch is made only of quantified (skippable or repeatable) items. */
  softBranch: boolean;
  /** Some item inside repeats. */
  repeats: boolean;
}

/**
 * The first nested repetition in a regex's source that can backtrack exponentially, or undefined.
 *
 * @example nestedRepetition("(a+)+$") // "(a+)+"
 * @example nestedRepetition("(\\d+,)*") // undefined: the comma separates the repetitions
 */
export function nestedRepetition(source: string): string | undefined {
  let i = 0;
  let found: string | undefined;

  /** Reads a quantifier at `i`: whether there is one, and whether it repeats (max > 1). */
  const quantifier = (): { quantified: boolean; repeats: boolean } => {
    const char = source[i];
    let result = { quantified: false, repeats: false };
    if (char === "*" || char === "+") result = { quantified: true, repeats: true };
    else if (char === "?") result = { quantified: true, repeats: false };
    else if (char === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (!match) return result;
      const max = match[2] === undefined ? Number(match[1]) : match[3] === "" ? Infinity : Number(match[3]);
      i += match[0].length - 1;
      result = { quantified: true, repeats: max > 1 };
    } else return result;
    i++;
    if (source[i] === "?") i++; // lazy: same backtracking
    return result;
  };

  const alternation = (): Scan => {
    const scan: Scan = { softBranch: false, repeats: false };
    let branchSoft = true;
    let branchItems = 0;
    const endBranch = () => {
      if (branchItems > 0 && branchSoft) scan.softBranch = true;
      branchSoft = true;
      branchItems = 0;
    };
    while (i < source.length && source[i] !== ")") {
      const start = i;
      const char = source[i]!;
      if (char === "|") {
        endBranch();
        i++;
        continue;
      }
      if (char === "^" || char === "$") {
        i++;
        continue;
      }
      let inner: Scan = { softBranch: false, repeats: false };
      let zeroWidth = false;
      if (char === "(") {
        const lookaround = /^\(\?<?[=!]/.exec(source.slice(i));
        zeroWidth = lookaround !== null;
        i += lookaround ? lookaround[0].length : (/^\(\?(:|<[A-Za-z_$][\w$]*>)/.exec(source.slice(i))?.[0].length ?? 1);
        inner = alternation();
        i++; // ")"
      } else if (char === "[") {
        i++;
        while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
        i++;
      } else if (char === "\\") {
        zeroWidth = source[i + 1] === "b" || source[i + 1] === "B";
        i += 2;
      } else {
        i++;
      }
      const { quantified, repeats } = quantifier();
      if (zeroWidth) continue;
      if (repeats && inner.repeats && inner.softBranch) found ??= source.slice(start, i);
      branchItems++;
      if (!quantified && !inner.softBranch) branchSoft = false;
      if (repeats || inner.repeats) scan.repeats = true;
    }
    endBranch();
    return scan;
  };

  while (i < source.length) {
    alternation();
    i++; // an unbalanced ")" cannot compile anyway; step over it
  }
  return found;
}
