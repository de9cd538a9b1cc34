import { resolve } from "node:path";
import { readRegularFile } from "./read-regular-file.js";

/**
 * True when a file is an evals file rather than a fakes manifest: named `evals.yaml` (or
 * `*.evals.yaml`/`.json`), or holding top-level `cases`/`selection` beside `fakes`. Here, on Node
 * built-ins, so `validate` can tell the two apart without loading the judge.
 *
 * @example isEvalsFile("examples/tickets/evals.yaml") // true
 */
export function isEvalsFile(path: string): boolean {
  if (/(^|[\\/.])evals\.(ya?ml|json)$/i.test(path)) return true;
  const read = readRegularFile(resolve(path));
  if (!read.ok) return false;
  const head = read.text.slice(0, 20_000);
  return /^fakes\s*:/m.test(head) && /^(cases|selection)\s*:/m.test(head);
}
