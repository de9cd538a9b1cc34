import { formatPath } from "./manifest-path.js";
import type { Report } from "./report.js";
import type { PathSegment } from "./source-document.js";

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
  const pending: Array<[unknown, PathSegment[]]> = [[value, []]];
  let found = 0;
  while (pending.length > 0) {
    const [node, path] = pending.pop() as [unknown, PathSegment[]];
    if (typeof node === "number") {
      if (Number.isFinite(node)) continue;
      found++;
      if (found <= MAX_REPORTED) {
        report.error("E_NON_FINITE", path, `${formatPath(path)} is ${node}, which is not a finite number: JSON cannot carry it (a client would read null)`);
      }
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) pending.push([node[i], [...path, i]]);
    } else if (node !== null && typeof node === "object") {
      const entries = Object.entries(node);
      for (let i = entries.length - 1; i >= 0; i--) pending.push([entries[i][1], [...path, entries[i][0]]]);
    }
  }
  if (found > MAX_REPORTED) {
    report.error("E_NON_FINITE", [], `${found - MAX_REPORTED} more numbers that are not finite (Infinity or NaN) were found and not listed`);
  }
}
