import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./examples.js";

/** The crm example's manifest, which the runner's test cases run against. */
export const CRM_FAKES = `${ROOT}examples/crm/fakes.yaml`;
export const CRM_CLOCK = "2026-10-01T09:00:00.000Z";

/** Writes an evals.yaml of these cases (YAML or JSON text each) against the crm fakes in a fresh folder, with top-level `header` lines; returns its path. */
export function writeEvals(cases: string, header = ""): { file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-evals-"));
  const file = join(dir, "evals.yaml");
  writeFileSync(file, `version: 1\nfakes: ${JSON.stringify(CRM_FAKES)}\n${header}${header && !header.endsWith("\n") ? "\n" : ""}cases:\n${cases}`);
  return { file, dir };
}
