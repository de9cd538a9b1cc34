import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./examples.js";

/** The crm example's manifest, which the runner's test cases run against. */
export const CRM_FAKES = `${ROOT}examples/crm/fakes.yaml`;
export const CRM_CLOCK = "2026-10-01T09:00:00.000Z";

/**
 * A copy of an example's Recipe in a fresh folder (its handlers import eval-simulate, so the copy
 * links the package): an evals file written there names its fakes inside its own folder, as an
 * evals file must unless it is run with --allow-outside.
 */
export function copyRecipe(example = "crm"): string {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-evals-"));
  cpSync(join(ROOT, "examples", example), dir, { recursive: true, filter: (src) => !src.includes("/tests") && !src.endsWith(".judgments.json") });
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules/eval-simulate"));
  // A package of its own, as the example is inside this one: no package.json above the copy decides how it loads.
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "recipe-copy", private: true, type: "module" })}\n`);
  return dir;
}

/** Writes an evals.yaml of these cases (YAML or JSON text each) beside a copy of the crm fakes in a fresh folder, with top-level `header` lines; returns its path. */
export function writeEvals(cases: string, header = ""): { file: string; dir: string } {
  const dir = copyRecipe("crm");
  const file = join(dir, "evals.yaml");
  writeFileSync(file, `version: 1\nfakes: fakes.yaml\n${header}${header && !header.endsWith("\n") ? "\n" : ""}cases:\n${cases}`);
  return { file, dir };
}
