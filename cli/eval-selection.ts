/**
 * `eval-simulate eval --selection evals.yaml --model provider:model`: the evals file's selection
 * fixtures against a model, with the catalog its fakes serve (or a variant of it). `cli/eval.ts`
 * hands `--selection` runs here. Exit 0: a complete run (the gate decides nothing about the
 * exit), or skipped without a key; 1: a bad evals or variant file; 2: PRELIMINARY (trials lost
 * to infrastructure, the budget or a fatal error), or a usage error.
 */
import { rmSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { ManifestError } from "../engine/author/source/index.js";
import { loadEvals } from "../engine/judge/evals/index.js";
import { missingKeys, skipMessage } from "../engine/eval/models/index.js";
import { languageModel } from "../engine/eval/models/index.js";
import { parseModel } from "../engine/eval/models/index.js";
import { doneTrials, lockResults, readResultsFile, repairTornLine } from "../engine/eval/results/index.js";
import { budgetLimit, SpendLedger } from "../engine/eval/models/index.js";
import { selectionCatalog } from "../engine/judge/selection/index.js";
import { resolveFixtures } from "../engine/judge/selection/index.js";
import { runSelection, type SelectionLine } from "../engine/eval/runner/index.js";
import { renderSelectionJson, renderSelectionMarkdown, renderSelectionText, summarizeSelection } from "../engine/eval/runner/index.js";
import { loadVariant, variantCatalog } from "../engine/judge/selection/index.js";
import { EXIT } from "./exit-codes.js";
import { readPrices } from "./prices-flag.js";
import { renderText } from "./render-diagnostics.js";

const OPTIONS = {
  selection: { type: "boolean" },
  model: { type: "string" },
  "base-url": { type: "string" },
  variant: { type: "string" },
  out: { type: "string" },
  fresh: { type: "boolean" },
  "allow-outside": { type: "boolean" },
  "budget-usd": { type: "string" },
  prices: { type: "string" },
  concurrency: { type: "string" },
  limit: { type: "string" },
  iterations: { type: "string" },
  "top-k": { type: "string" },
  "gate-remediate": { type: "string" },
  "gate-watch": { type: "string" },
  retries: { type: "string" },
  format: { type: "string" },
} as const;

class UsageError extends Error {}

function count(value: string | undefined, flag: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${flag} takes a whole number of at least ${min}, not "${value}"`);
  return n;
}

function share(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--${flag} takes a share between 0 and 1 (0.85), not "${value}"`);
  return n;
}

const slug = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, "-");

/**
 * Runs the selection fixtures of an evals file; `rawArgs` are the command's arguments after
 * `eval` (the evals file, `--selection` and the flags above).
 *
 * @example await runSelectionCommand({}, ["examples/workspace/evals.yaml", "--selection", "--model", "anthropic:claude-sonnet-4-5"]);
 */
export async function runSelectionCommand(_parsedArgs: unknown, rawArgs: string[]): Promise<void> {
  try {
    await run(rawArgs);
  } catch (error) {
    if (error instanceof UsageError || (error as Error)?.message?.startsWith("[eval-simulate]") || (error as { code?: string })?.code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`eval-simulate: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    throw error;
  }
}

async function run(rawArgs: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: rawArgs, options: OPTIONS, allowPositionals: true, strict: true });
  const format = values.format ?? "text";
  if (!["text", "markdown", "json"].includes(format)) throw new UsageError(`--format is text, markdown or json, not "${format}"`);
  const file = positionals.find((p) => p !== "eval") ?? "evals.yaml";
  const modelId = values.model ?? process.env.EVAL_MODEL;
  if (!modelId) throw new UsageError("name the model: --model <provider>:<model> (or EVAL_MODEL), e.g. anthropic:claude-sonnet-4-5");
  const spec = parseModel(modelId, values["base-url"]);
  const concurrency = count(values.concurrency, "concurrency", 4);
  const iterations = count(values.iterations, "iterations", 1);
  const retries = count(values.retries, "retries", 4, 0);
  const limitUsd = budgetLimit(values["budget-usd"]);
  const prices = values.prices === undefined ? {} : readPrices(values.prices);

  let loaded: Awaited<ReturnType<typeof loadEvals>>;
  try {
    loaded = await loadEvals(file, values["allow-outside"] ? { allowOutside: true } : {});
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    process.stdout.write(renderText([{ file, valid: false, diagnostics: error.diagnostics }]));
    process.exitCode = EXIT.invalid;
    return;
  }
  const { evals } = loaded;
  const settings = evals.selectionOptions ?? {};
  if (!evals.selection || evals.selection.length === 0) throw new UsageError(`${file} has no selection fixtures (add \`selection:\`)`);
  let catalog = selectionCatalog(loaded.fakes.fakes);
  let variantId: string | undefined;
  if (values.variant) {
    try {
      const variant = loadVariant(values.variant, catalog);
      catalog = variantCatalog(catalog, variant);
      variantId = variant.id;
    } catch (error) {
      if (!(error instanceof ManifestError)) throw error;
      process.stdout.write(renderText([{ file: values.variant, valid: false, diagnostics: error.diagnostics }]));
      process.exitCode = EXIT.invalid;
      return;
    }
  }
  const k = count(values["top-k"], "top-k", settings.topK ?? 3);
  const gate = { remediate: share(values["gate-remediate"], "gate-remediate") ?? settings.gate?.remediate, watch: share(values["gate-watch"], "gate-watch") ?? settings.gate?.watch };
  if ((gate.remediate ?? 0.85) > (gate.watch ?? 0.9)) throw new UsageError(`the gate's remediate threshold (${gate.remediate ?? 0.85}) is above its watch threshold (${gate.watch ?? 0.9})`);
  const fixtures = resolveFixtures(evals.selection, catalog).slice(0, count(values.limit, "limit", Number.MAX_SAFE_INTEGER));

  // Without a key the run is skipped, never failed: CI without secrets stays green.
  const missing = missingKeys([{ model: modelId, baseURL: values["base-url"] }]);
  if (missing.length > 0) {
    process.stdout.write(`${skipMessage(missing)} (${fixtures.length} selection fixtures not run)\n`);
    process.exitCode = EXIT.ok;
    return;
  }
  const out = values.out ?? `eval-results/selection-${slug(basename(file).replace(/\.(ya?ml|json)$/i, ""))}-${slug(modelId)}${variantId ? `-${slug(variantId)}` : ""}.ndjson`;
  const warn = (m: string) => void process.stderr.write(`${m}\n`);
  // One run writes a results file at a time: a second is refused while the first holds the lock.
  const release = lockResults(out, warn);
  let previous: SelectionLine[];
  let result: Awaited<ReturnType<typeof runSelection>>;
  try {
    // --fresh starts the file again; otherwise the trials it holds as pass or fail are resumed.
    if (values.fresh) rmSync(out, { force: true });
    const read = readResultsFile(out, warn);
    if (read.torn !== undefined) repairTornLine(out, read.torn, warn);
    previous = read.lines.filter((l): l is SelectionLine => (l as SelectionLine).kind === "selection" && l.model === modelId);
    const other = previous.find((l) => l.variant !== variantId);
    if (other) throw new UsageError(`${out} holds a run ${other.variant ? `of variant ${other.variant}` : "without a variant"}: give this run its own --out`);

    const ledger = new SpendLedger(limitUsd, [modelId], prices);
    const model = await languageModel(spec, process.env, { retries });
    const controller = new AbortController();
    const interrupt = () => controller.abort(new Error("interrupted"));
    process.once("SIGINT", interrupt);
    try {
      result = await runSelection({
        fixtures, catalog, model, modelId, ledger, iterations, concurrency, out, signal: controller.signal,
        done: doneTrials(previous), suite: file, ...(variantId ? { variant: variantId } : {}), ...(settings.system ? { system: settings.system } : {}),
      });
    } finally {
      process.off("SIGINT", interrupt);
    }
  } finally {
    release();
  }
  // The report covers this run's fixtures: lines resumed from the file and lines just written.
  const wanted = new Set(fixtures.flatMap((f) => Array.from({ length: iterations }, (_, i) => `${f.id}#${i}`)));
  const byKey = new Map<string, SelectionLine>();
  for (const line of [...previous, ...result.lines]) if (wanted.has(`${line.case}#${line.iteration}`)) byKey.set(`${line.case}#${line.iteration}`, line);
  const summary = summarizeSelection([...byKey.values()], {
    k, areas: catalog.areas, gate, model: modelId, ...(variantId ? { variant: variantId } : {}),
    unstarted: wanted.size - byKey.size, ...(result.stopped ? { stopped: result.stopped } : {}), ...(result.fatal ? { fatal: result.fatal } : {}),
  });
  const render = format === "json" ? renderSelectionJson : format === "markdown" ? renderSelectionMarkdown : renderSelectionText;
  process.stdout.write(render(summary));
  if (format === "text") process.stdout.write(`  results: ${out}\n`);
  process.exitCode = summary.exitCode;
}
