import { rmSync } from "node:fs";
import { basename } from "node:path";
import { type ArgsDef, defineCommand, type ParsedArgs } from "citty";
import { ManifestError } from "../engine/author/source/index.js";
import { loadEvals } from "../engine/judge/evals/index.js";
import { budgetLimit, languageModel, missingKeys, parseModel, skipMessage, SpendLedger } from "../engine/eval/models/index.js";
import { doneTrials, lockResults, readResultsFile, repairTornLine } from "../engine/eval/results/index.js";
import { loadVariant, resolveFixtures, selectionCatalog, variantCatalog } from "../engine/judge/selection/index.js";
import {
  progressBar,
  renderSelectionJson,
  renderSelectionMarkdown,
  renderSelectionText,
  runSelection,
  type SelectionLine,
  summarizeSelection,
} from "../engine/eval/runner/index.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { formatArg } from "./formats.js";
import { readPrices } from "./prices-flag.js";
import { renderText } from "./render-diagnostics.js";
import { RUN_FLAGS, UsageError, wholeNumber } from "./run-flags.js";

const args = {
  evals: { type: "positional", required: false, default: "evals.yaml", description: "The evals file whose selection fixtures to run", valueHint: "evals.yaml" },
  model: { type: "string", description: "The model that picks the tools (provider:model; default EVAL_MODEL)", valueHint: "anthropic:claude-sonnet-4-5" },
  ...RUN_FLAGS,
  out: {
    type: "string",
    description:
      "The NDJSON results file; trials it already holds as pass or fail are skipped (resume). Default eval-results/selection-<evals>-<model>[-<variant>].ndjson",
  },
  limit: { type: "string", description: "Only the first N fixtures (a smoke run)" },
  iterations: { type: "string", description: "Trials per fixture (default 1)" },
  "top-k": { type: "string", description: "How many of the first calls top-k counts (default selectionOptions.topK, or 3)" },
  "gate-remediate": { type: "string", description: "The gate's remediate threshold on top-1, a share (default selectionOptions.gate.remediate, or 0.85)" },
  "gate-watch": { type: "string", description: "The gate's watch threshold on top-1, a share (default selectionOptions.gate.watch, or 0.9)" },
  retries: { type: "string", description: "Retries of a request that failed transiently: rate limits, overloads, 5xx, network errors (default 4)" },
  format: formatArg("The report printed at the end", ["text", "markdown", "json"]),
} satisfies ArgsDef;

function share(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${flag} takes a share between 0 and 1 (0.85), not "${value}"`);
  return n;
}

const slug = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, "-");

/** An evals or variant file that is not valid: its diagnostics, as `eval` prints them. */
function invalidFile(file: string, error: ManifestError): void {
  process.stderr.write(renderText([{ file, valid: false, diagnostics: error.diagnostics }]));
  process.exitCode = EXIT.usage;
}

/**
 * `eval-simulate select [evals.yaml] --model provider:model`: the evals file's tool-selection
 * fixtures against a model, with the catalog its fakes serve (or a variant of it). Exit 0: a
 * complete run (the gate decides nothing about the exit), or skipped without a key; 2:
 * PRELIMINARY (trials lost to infrastructure, the budget or a fatal error), an invalid evals or
 * variant file, or a usage error.
 */
export default defineCommand({
  meta: {
    name: "select",
    description:
      "Run an evals file's tool-selection fixtures against a model: one forced tool call per fixture and trial, scored top-1/top-k per area, with the gate. Exit 0 a complete run (or skipped: no API key), 2 PRELIMINARY (trials not run: provider errors, the budget), an invalid evals or variant file, or a usage error.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    try {
      await select(parsed);
    } catch (error) {
      if (!(error instanceof UsageError) && !(error as Error)?.message?.startsWith("[eval-simulate]")) throw error;
      process.stderr.write(`eval-simulate select: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
      process.exitCode = EXIT.usage;
    }
  },
});

async function select(parsed: ParsedArgs<typeof args>): Promise<void> {
  const file = parsed.evals ?? "evals.yaml";
  const modelId = parsed.model ?? process.env.EVAL_MODEL;
  if (!modelId) throw new UsageError("name the model: --model <provider>:<model> (or EVAL_MODEL), e.g. anthropic:claude-sonnet-4-5");
  const spec = parseModel(modelId, parsed["base-url"]);
  const concurrency = wholeNumber(parsed.concurrency, "--concurrency", 1, 4);
  const iterations = wholeNumber(parsed.iterations, "--iterations", 1, 1);
  const retries = wholeNumber(parsed.retries, "--retries", 0, 4);
  const limit = wholeNumber(parsed.limit, "--limit", 1, Number.MAX_SAFE_INTEGER);
  const topK = wholeNumber(parsed["top-k"], "--top-k", 1);
  const remediate = share(parsed["gate-remediate"], "--gate-remediate");
  const watch = share(parsed["gate-watch"], "--gate-watch");
  const limitUsd = budgetLimit(parsed["budget-usd"]);
  const prices = parsed.prices === undefined ? {} : readPrices(parsed.prices);

  let loaded: Awaited<ReturnType<typeof loadEvals>>;
  try {
    loaded = await loadEvals(file, parsed["allow-outside"] ? { allowOutside: true } : {});
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    return invalidFile(file, error);
  }
  const { evals } = loaded;
  const settings = evals.selectionOptions ?? {};
  if (!evals.selection || evals.selection.length === 0) throw new UsageError(`${file} has no selection fixtures (add \`selection:\`)`);
  let catalog = selectionCatalog(loaded.fakes.fakes);
  let variantId: string | undefined;
  const variantFile = parsed.variant;
  if (variantFile) {
    try {
      const variant = loadVariant(variantFile, catalog);
      catalog = variantCatalog(catalog, variant);
      variantId = variant.id;
    } catch (error) {
      if (!(error instanceof ManifestError)) throw error;
      return invalidFile(variantFile, error);
    }
  }
  const k = topK ?? settings.topK ?? 3;
  const gate = { remediate: remediate ?? settings.gate?.remediate, watch: watch ?? settings.gate?.watch };
  if ((gate.remediate ?? 0.85) > (gate.watch ?? 0.9))
    throw new UsageError(`the gate's remediate threshold (${gate.remediate ?? 0.85}) is above its watch threshold (${gate.watch ?? 0.9})`);
  const fixtures = resolveFixtures(evals.selection, catalog).slice(0, limit);

  // Without a key the run is skipped, never failed: CI without secrets stays green.
  const missing = missingKeys([{ model: modelId, baseURL: parsed["base-url"] }]);
  if (missing.length > 0) {
    process.stdout.write(`${skipMessage(missing)} (${fixtures.length} selection fixtures not run)\n`);
    process.exitCode = EXIT.ok;
    return;
  }
  const out =
    parsed.out ??
    `eval-results/selection-${slug(basename(file).replace(/\.(ya?ml|json)$/i, ""))}-${slug(modelId)}${variantId ? `-${slug(variantId)}` : ""}.ndjson`;
  const warn = (m: string) => void process.stderr.write(`${m}\n`);
  // One run writes a results file at a time: a second is refused while the first holds the lock.
  const release = lockResults(out, warn);
  try {
    // --fresh starts the file again; otherwise the trials it holds as pass or fail are resumed.
    if (parsed.fresh) rmSync(out, { force: true });
    const read = readResultsFile(out, warn);
    if (read.torn !== undefined) repairTornLine(out, read.torn, warn);
    const previous = read.lines.filter((l): l is SelectionLine => (l as SelectionLine).kind === "selection" && l.model === modelId);
    const other = previous.find((l) => l.variant !== variantId);
    if (other) throw new UsageError(`${out} holds a run ${other.variant ? `of variant ${other.variant}` : "without a variant"}: give this run its own --out`);

    const ledger = new SpendLedger(limitUsd, [modelId], prices);
    const model = await languageModel(spec, process.env, { retries });
    // The report covers this run's fixtures: lines resumed from the file and lines just written.
    const wanted = new Set(fixtures.flatMap((f) => Array.from({ length: iterations }, (_, i) => `${f.id}#${i}`)));
    const byKey = new Map<string, SelectionLine>();
    for (const line of previous) if (wanted.has(`${line.case}#${line.iteration}`)) byKey.set(`${line.case}#${line.iteration}`, line);
    const bar = progressBar(process.stderr);
    const progress = () =>
      bar.update({ done: byKey.size, total: wanted.size, passed: [...byKey.values()].filter((l) => l.status === "pass").length, spentUsd: ledger.spentUsd });
    const controller = new AbortController();
    const interrupt = () => controller.abort(new Error("interrupted"));
    process.once("SIGINT", interrupt);
    process.once("SIGTERM", interrupt);
    let result: Awaited<ReturnType<typeof runSelection>>;
    try {
      result = await runSelection({
        fixtures,
        catalog,
        model,
        modelId,
        ledger,
        iterations,
        concurrency,
        out,
        signal: controller.signal,
        done: doneTrials(previous),
        suite: file,
        ...(variantId ? { variant: variantId } : {}),
        ...(settings.system ? { system: settings.system } : {}),
        onLine: (line) => {
          if (wanted.has(`${line.case}#${line.iteration}`)) byKey.set(`${line.case}#${line.iteration}`, line);
          progress();
        },
      });
    } finally {
      bar.clear();
      process.off("SIGINT", interrupt);
      process.off("SIGTERM", interrupt);
    }
    for (const line of result.lines) if (wanted.has(`${line.case}#${line.iteration}`)) byKey.set(`${line.case}#${line.iteration}`, line);
    const summary = summarizeSelection([...byKey.values()], {
      k,
      areas: catalog.areas,
      gate,
      model: modelId,
      ...(variantId ? { variant: variantId } : {}),
      unstarted: wanted.size - byKey.size,
      ...(result.stopped ? { stopped: result.stopped } : {}),
      ...(result.fatal ? { fatal: result.fatal } : {}),
    });
    const render = parsed.format === "json" ? renderSelectionJson : parsed.format === "markdown" ? renderSelectionMarkdown : renderSelectionText;
    process.stdout.write(render(summary));
    process.stderr.write(`results: ${out}\n`);
    process.exitCode = summary.exitCode;
  } finally {
    release();
  }
}
