import { readRegularFile } from "../../core/files/index.js";
import { dirname, resolve } from "node:path";
import type { EvalsDocument } from "../../../schema/evals/evals.js";
import { type LoadedFakes, loadFakes } from "../../author/fakes/index.js";
import { type Diagnostic, ManifestError } from "../../author/source/index.js";
import { allowOutsideByDefault, faithfulJson, manifestCacheSlot, publishedValidator, RecipeFiles } from "../../author/manifest/index.js";
import { Report } from "../../author/source/index.js";
import { checkAgainstSchema } from "../../author/manifest/index.js";
import { SourceDocument } from "../../author/source/index.js";
import { checkEvalsContent } from "./check-evals.js";

/** The evals validator: precompiled at build time, or compiled from the published `eval-simulate.evals.schema.json` once per process. */
const evalsValidator = () => publishedValidator("evals");

/** An evals file read and checked: the document and its fakes when valid, and every diagnostic. */
export interface EvalsCheck {
  file: string;
  evals?: EvalsDocument;
  fakes?: LoadedFakes;
  diagnostics: Diagnostic[];
}

/** How an evals file is read: the clock its fakes' worlds are built at, and whether `fakes:` may lead out of its folder. */
export interface EvalsOptions {
  clock?: string;
  /** Load a fakes manifest outside the evals file's folder (`--allow-outside`; default EVAL_SIMULATE_ALLOW_OUTSIDE=1). */
  allowOutside?: boolean;
}

const sorted = (diagnostics: Diagnostic[]) => [...diagnostics].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);

/**
 * Reads and checks an evals.yaml: YAML, the published schema, the fakes manifest it names
 * (loaded and validated), and every name and expression in its cases (tools, entities and
 * scenarios exist; `$pattern`s compile; JSONata parses), each problem at its file:line:column.
 *
 * @example const { evals, fakes, diagnostics } = await checkEvals("examples/tickets/evals.yaml");
 */
export async function checkEvals(path: string, options: EvalsOptions = {}): Promise<EvalsCheck> {
  const file = resolve(path);
  // Read as a manifest is: a regular file under the size cap, never a FIFO or a device.
  const read = readRegularFile(file);
  if (!read.ok)
    return {
      file,
      diagnostics: [
        {
          code: "E_IO",
          severity: "error",
          message: `cannot read ${path}: it ${read.reason}`,
          hint: "Check the path.",
          file,
          line: 1,
          column: 1,
          path: "(root)",
        },
      ],
    };
  const text = read.text;
  // The manifest cache keeps a valid evals file's parse (value and positions) and its schema
  // check by its text, as it does a manifest's: a hit skips both (and loading yaml at all).
  const slot = manifestCacheSlot(dirname(file), text, "evals");
  const hit = slot?.read();
  const source = new SourceDocument(file, text, hit);
  const report = new Report(source);
  for (const problem of source.problems) report.error(problem.code, [], problem.message, { position: problem.position });
  if (source.problems.length > 0) return { file, diagnostics: sorted(report.diagnostics) };
  if (!hit) {
    for (const d of checkAgainstSchema(source, evalsValidator()))
      report.diagnostics.push({ ...d, hint: d.hint?.replace("eval-simulate.schema.json", "eval-simulate.evals.schema.json") });
  }
  // The value as parsed, before any check below reads it (none changes it).
  const parsed = slot && !hit && !report.failed ? faithfulJson(source.value) : undefined;
  const evals = source.value as EvalsDocument;
  if (typeof evals !== "object" || evals === null || typeof evals.fakes !== "string") return { file, diagnostics: sorted(report.diagnostics) };
  let fakes: LoadedFakes | undefined;
  // `fakes:` is a file the evals file names, confined to its folder as a manifest's files are.
  const allowOutside = allowOutsideByDefault(options.allowOutside);
  const located = new RecipeFiles(dirname(file), { allowOutside, owner: "evals file" }).locate(evals.fakes);
  if (!located.ok) report.error("E_FAKES", ["fakes"], `the fakes manifest ${evals.fakes} cannot be loaded: it ${located.reason}`);
  else {
    try {
      fakes = await loadFakes(located.file, { clock: options.clock, allowOutside });
    } catch (error) {
      const inner = error instanceof ManifestError ? error.diagnostics.filter((d) => d.severity === "error") : [];
      const why =
        inner.length > 0
          ? `it has ${inner.length} error${inner.length === 1 ? "" : "s"} (listed with it)`
          : (error as Error).message.replace(/^\[eval-simulate\] /, "");
      report.error("E_FAKES", ["fakes"], `the fakes manifest ${evals.fakes} cannot be loaded: ${why}`);
      report.diagnostics.push(...inner);
    }
  }
  if (fakes) checkEvalsContent(evals, fakes, report);
  if (parsed !== undefined && !report.failed) slot?.write({ value: parsed, positions: source.positionsAsked(), compiles: {} });
  const diagnostics = sorted(report.diagnostics);
  return report.failed ? { file, diagnostics } : { file, evals, fakes, diagnostics };
}

/**
 * Loads an evals.yaml and its fakes, or throws a ManifestError carrying every diagnostic.
 *
 * @example const { evals, fakes } = await loadEvals("evals.yaml"); evals.cases[0].id
 */
export async function loadEvals(path: string, options: EvalsOptions = {}): Promise<{ evals: EvalsDocument; fakes: LoadedFakes; file: string }> {
  const checked = await checkEvals(path, options);
  if (!checked.evals || !checked.fakes) throw new ManifestError(checked.diagnostics);
  return { evals: checked.evals, fakes: checked.fakes, file: checked.file };
}
