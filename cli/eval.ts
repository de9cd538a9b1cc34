import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { type ArgsDef, defineCommand, runCommand } from "citty";
import { ManifestError } from "../engine/author/source/index.js";
import { progressBar } from "../engine/eval/runner/index.js";
import { renderSummaryText } from "../engine/eval/results/index.js";
import type { Price } from "../engine/eval/models/index.js";
import { budgetLimit, parseProviderLimits } from "../engine/eval/models/index.js";
import { type HostChoice, parseShard, runEvals, type Shard } from "../engine/eval/runner/index.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { warnDeprecated } from "./flag-aliases.js";
import { formatArg } from "./formats.js";
import { readPrices } from "./prices-flag.js";
import { renderText } from "./render-diagnostics.js";
import { renderReport, REPORT_FORMATS } from "./render-report.js";
import { RUN_FLAGS, wholeNumber } from "./run-flags.js";
import { startTracing, stopTracing } from "../engine/serve/telemetry/index.js";

const args = {
  evals: { type: "positional", required: false, default: "evals.yaml", description: "The evals file", valueHint: "evals.yaml" },
  dry: { type: "boolean", description: "Play every case's script instead of its host: free, offline; proves each case passes its own expectations" },
  model: { type: "string", description: "Run every case with this model (provider:model) instead of its own host", valueHint: "anthropic:claude-sonnet-4-5" },
  ...RUN_FLAGS,
  concurrency: { ...RUN_FLAGS.concurrency, description: "Trials at once (across every worker)" },
  shard: {
    type: "string",
    description: "Only this part of the trials, i/n: the same split on every machine; merge the parts' results with report (see docs/sharding.md)",
    valueHint: "i/n",
  },
  workers: { type: "string", description: "Run the trials in N worker processes: one budget, one results file, one progress line" },
  "provider-limit": {
    type: "string",
    description: "Model requests in flight per provider across every worker, halved on 429s and creeping back up",
    valueHint: "anthropic=8,openai=16",
  },
  out: {
    type: "string",
    description: "The NDJSON results file; trials it already holds are skipped (resume). Default eval-results/<date>-<sha>.ndjson (none with --dry)",
  },
  case: { type: "string", description: "Only these cases (ids, comma-separated)" },
  "filter-tags": { type: "string", description: "Only cases with one of these tags (comma-separated)" },
  limit: { type: "string", description: "Only the first N cases (a smoke run)" },
  format: formatArg("The report printed at the end", REPORT_FORMATS),
  "max-world-bytes": {
    type: "string",
    description: "The most bytes of JSON one trial's world may hold; a write past it is a tool error (EVAL_SIMULATE_MAX_WORLD_BYTES, default 67108864: 64 MiB)",
  },
  selection: { type: "boolean", description: "Deprecated: use eval-simulate select <evals.yaml>" },
  "judge-model": {
    type: "string",
    description: "Judge every rubric with this model (provider:model) instead of the file's judgeModel and the rubrics' own",
    valueHint: "anthropic:claude-sonnet-4-5",
  },
  "record-models": {
    type: "boolean",
    description:
      "Cases with a models: block: proxy their agent's model requests to the real provider (OPENAI_BASE_URL/OPENAI_API_KEY, ANTHROPIC_BASE_URL/ANTHROPIC_API_KEY) and write each trial's cassette beside the evals file",
  },
  "replay-models": {
    type: "boolean",
    description:
      "Cases with a models: block: answer their agent's model requests from the cassettes only, offline; a request no recording matches fails its trial with a diff",
  },
  "refresh-judgments": {
    type: "boolean",
    description: "Ask the judge model again even where the judgments file beside the evals file has a judgment (the new one replaces it)",
  },
} satisfies ArgsDef;

function usage(message: string): void {
  process.stderr.write(`eval-simulate eval: ${message}\n`);
  process.exitCode = EXIT.usage;
}

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");

/** `eval-results/<date>-<short sha>.ndjson`: the same commit on the same day resumes the same file (a shard its own). */
function defaultOut(shard?: Shard): string {
  let sha = "nogit";
  try {
    sha =
      execFileSync("git", ["rev-parse", "--short", "HEAD"], { stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim() || sha;
  } catch {
    // Not a git checkout: the date alone names the file.
  }
  return `eval-results/${new Date().toISOString().slice(0, 10)}-${sha}${shard ? `-shard-${shard.index}-of-${shard.count}` : ""}.ndjson`;
}

/** `eval-simulate eval [evals.yaml]`: run every case's trials against the fakes and grade them; exit 0 pass (or all skipped), 1 a case below its threshold, 2 PRELIMINARY or a usage error. */
export default defineCommand({
  meta: {
    name: "eval",
    description:
      "Run an agent against the fakes, many trials at once, and grade each. Exit 0 pass (or every case skipped: no API key), 1 a case below its threshold, 2 PRELIMINARY (trials not run: provider errors, the budget) or a usage error.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    // The old spelling of `select`: its flags are select's, so it is handed over before eval reads them.
    if (parsed.selection) {
      warnDeprecated("eval", "--selection", "eval-simulate select <evals.yaml>");
      const select = (await import("./select.js")).default;
      await runCommand(select, { rawArgs: rawArgs.filter((arg) => arg !== "--selection" && !arg.startsWith("--selection=")) });
      return;
    }
    if (!refuseUnknownFlags(rawArgs, args)) return;
    let concurrency: number | undefined;
    let limit: number | undefined;
    let maxWorldBytes: number | undefined;
    let workers: number | undefined;
    let budgetUsd: number | undefined;
    let prices: Record<string, Price> | undefined;
    let shard: Shard | undefined;
    let providerLimits: Record<string, number> | undefined;
    try {
      concurrency = wholeNumber(parsed.concurrency, "--concurrency", 1);
      limit = wholeNumber(parsed.limit, "--limit", 1);
      maxWorldBytes = wholeNumber(parsed["max-world-bytes"], "--max-world-bytes", 1);
      workers = wholeNumber(parsed.workers, "--workers", 1);
      budgetUsd = budgetLimit(parsed["budget-usd"]);
      if (parsed.prices !== undefined) prices = readPrices(parsed.prices);
      if (parsed.shard !== undefined) shard = parseShard(parsed.shard);
      if (parsed["provider-limit"] !== undefined) providerLimits = parseProviderLimits(parsed["provider-limit"]);
    } catch (error) {
      return usage((error as Error).message.replace(/^\[eval-simulate\] /, ""));
    }
    if (parsed["base-url"] !== undefined && parsed.model === undefined) return usage("--base-url goes with --model");
    if (parsed["record-models"] && parsed["replay-models"]) return usage("--record-models and --replay-models: give one of them");
    if (parsed.dry && (parsed["record-models"] || parsed["replay-models"]))
      return usage("--dry plays every case's script and asks no model: leave out --record-models and --replay-models");
    const host: HostChoice | undefined =
      parsed.model === undefined ? undefined : { type: "model", model: parsed.model, ...(parsed["base-url"] ? { baseURL: parsed["base-url"] } : {}) };
    const out = parsed.out ?? (parsed.dry ? undefined : defaultOut(shard));
    const bar = progressBar(process.stderr);
    const controller = new AbortController();
    const interrupt = () => controller.abort(new Error("interrupted"));
    process.once("SIGINT", interrupt);
    process.once("SIGTERM", interrupt);
    const file = parsed.evals ?? "evals.yaml";
    // OTEL_EXPORTER_OTLP_ENDPOINT and the rest turn on a trace per trial (docs/tracing.md).
    const tracing = await startTracing(process.env, "eval-simulate");
    if (tracing.warning) process.stderr.write(`eval-simulate: ${tracing.warning.replace(/^\[eval-simulate\] /, "")}\n`);
    let result: Awaited<ReturnType<typeof runEvals>>;
    try {
      result = await runEvals({
        evals: file,
        ...(parsed["allow-outside"] ? { allowOutside: true } : {}),
        dry: parsed.dry === true,
        ...(parsed["record-models"] ? { models: "record" as const } : parsed["replay-models"] ? { models: "replay" as const } : {}),
        ...(parsed["judge-model"] !== undefined ? { judgeModel: parsed["judge-model"] } : {}),
        refreshJudgments: parsed["refresh-judgments"] === true,
        host,
        concurrency,
        ...(workers !== undefined ? { workers } : {}),
        ...(shard ? { shard } : {}),
        ...(providerLimits ? { providerLimits } : {}),
        budgetUsd,
        ...(prices ? { prices } : {}),
        ...(parsed.variant !== undefined ? { variant: parsed.variant } : {}),
        out,
        ...(parsed.fresh ? { fresh: true } : {}),
        cases: list(parsed.case),
        filterTags: list(parsed["filter-tags"]),
        limit,
        ...(maxWorldBytes !== undefined ? { maxWorldBytes } : {}),
        signal: controller.signal,
        onProgress: (progress) => bar.update(progress),
        warn: (message) => process.stderr.write(`${message}\n`),
      });
    } catch (error) {
      bar.clear();
      if (error instanceof ManifestError) {
        const variantFile = parsed.variant !== undefined && error.diagnostics.some((d) => d.file === resolve(parsed.variant!));
        process.stderr.write(renderText([{ file: variantFile ? parsed.variant! : file, valid: false, diagnostics: error.diagnostics }]));
        process.exitCode = EXIT.usage;
        return;
      }
      return usage((error as Error).message.replace(/^\[eval-simulate\] /, ""));
    } finally {
      process.off("SIGINT", interrupt);
      process.off("SIGTERM", interrupt);
      // A collector that did not take the last spans must not hold the process: it exits once
      // the command is done (output written, exit code set).
      if (!(await stopTracing())) setTimeout(() => process.exit(), 10).unref();
    }
    bar.clear();
    const format = parsed.format as (typeof REPORT_FORMATS)[number];
    process.stdout.write(format === "text" ? renderSummaryText(result) : renderReport(result, result.lines, format));
    if (format !== "text") process.stderr.write(`${result.verdict.toUpperCase()}\n`);
    if (out && existsSync(out)) process.stderr.write(`results: ${relative(process.cwd(), out) || out}\n`);
    process.exitCode = result.exitCode;
  },
});
