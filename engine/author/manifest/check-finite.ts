import type { Report } from "../source/index.js";
import type { PathSegment } from "../source/index.js";

/** Past this many, the rest of a manifest's non-finite numbers are summed up in one line. */
const MAX_REPORTED = 100;

/**
 * Every number in the manifest (scenario state, defaults, stub answers and bodies, and the data
 * files they read) must be finite. YAML has `.inf` and `.nan`, and a literal past ±1.8e308
 * (`1e309`) reads as Infinity; JSON has neither, so such a value would reach a client as `null`
 * (outside the entity schema) and every later read of it would fail. Walked without recursion:
 * a data file may nest deeply.
 *
 * @example checkFiniteNumbers(document, report) // E_NON_FINITE at scenarios.quiet.state.crm.deals[0].amount
 */
export function checkFiniteNumbers(value: unknown, report: Report): void {
  // Containers to visit, each with the index of its parent's entry and its key there: a path is
  // only built for a number that is reported (a world may hold millions of values).
  const nodes: unknown[] = [value];
  const parents: number[] = [-1];
  const keys: PathSegment[] = [""];
  const pathOf = (index: number, last: PathSegment): PathSegment[] => {
    const path = [last];
    for (let i = index; i > 0; i = parents[i]) path.unshift(keys[i]);
    return path;
  };
  let found = 0;
  const see = (item: unknown, parent: number, key: PathSegment) => {
    if (typeof item === "number") {
      if (Number.isFinite(item)) return;
      found++;
      if (found <= MAX_REPORTED) {
        const path = parent === -1 ? [] : pathOf(parent, key);
        report.error("E_NON_FINITE", path, `${item} is not a finite number: JSON cannot carry it, so a client would read null`);
      }
    } else if (item !== null && typeof item === "object") {
      nodes.push(item);
      parents.push(parent);
      keys.push(key);
    }
  };
  for (let at = 0; at < nodes.length; at++) {
    const node = nodes[at];
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) see(node[i], at, i);
    else for (const key in node as object) if (Object.hasOwn(node as object, key)) see((node as Record<string, unknown>)[key], at, key);
  }
  if (typeof value === "number") see(value, -1, "");
  if (found > MAX_REPORTED) {
    report.error("E_NON_FINITE", [], `${found - MAX_REPORTED} more numbers that are not finite (Infinity or NaN) were found and not listed`);
  }
}
