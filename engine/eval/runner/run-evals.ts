/**
 * `runEvals`: every case of an evals file (or one shard of them), `iterations` trials each, with
 * bounded concurrency, in this process or in worker processes (a session per trial), judged,
 * appended to the results file as they end (resumed from it), and summarized.
 */
import { rmSync } from "node:fs";
import type { EvalCase, EvalsDocument } from "../../../schema/evals/evals.js";
import type { LoadedFakes } from "../../author/fakes/index.js";
import { positiveInteger } from "../../serve/http/index.js";
import { loadEvals } from "../../judge/evals/index.js";
import { selectionCatalog } from "../../judge/selection/index.js";
import { loadVariant, type Variant } from "../../judge/selection/index.js";
import { FatalRunError } from "../hosts/index.js";
import { judgeModels, rubricJudge, type RubricJudgeOptions } from "../rubrics/index.js";
import { runPool } from "./concurrency-pool.js";
import { type LimitStatus, missingKeys, ProviderLimits, skipMessage } from "../models/index.js";
import type { Price } from "../models/index.js";
import { appendResult, lockResults, readResultsFile, repairTornLine, type TrialLine } from "../results/index.js";
import type { RetryOptions } from "../models/index.js";
import { SpendLedger } from "../models/index.js";
import { type RunSummary, summarize } from "../results/index.js";
import { localTrials, type TrialRunner } from "./local-trials.js";
import { runOrigin } from "./run-origin.js";
import { type Shard, shardLabel } from "./shard.js";
import { TrialHosts } from "./trial-hosts.js";
import { caseHashes } from "./case-hash.js";
import { type HostChoice, hostConfig, isAgentHost, planTrials, selectCases } from "./trial-plan.js";
import { workerTrials } from "./worker-trials.js";
import type { ModelsMode } from "../cassettes/index.js";

export type { HostChoice } from "./trial-plan.js";

/** A run's progress, as the progress line shows it. */
export interface RunProgress {
  done: number;
  total: number;
  passed: number;
  spentUsd: number;
  /** Each limited provider's requests in flight and cap (`providerLimits`). */
  limits?: LimitStatus[];
}

export interface RunEvalsOptions {
  /** An evals.yaml path, or a document already loaded with its fakes. */
  evals: string | { evals: EvalsDocument; fakes: LoadedFakes; file?: string };
  /** With an evals path: load a fakes manifest outside its folder (`--allow-outside`). */
  allowOutside?: boolean;
  /** Every case runs with this host instead of its own. */
  host?: HostChoice;
  /** Every case plays its script (free, offline); rubrics are judged from the judgments file only. */
  dry?: boolean;
  /**
   * The cases' model traffic (a case's `models:` block): `record` proxies it to the real provider
   * and writes each trial's cassette beside the evals file (`--record-models`); `replay` answers
   * from the cassettes only, offline (`--replay-models`). Neither: a case's script, else its
   * cassette, else the real provider unrecorded.
   */
  models?: ModelsMode;
  /** Judge every rubric with this model (`--judge-model`), whatever the file and the rubrics name. */
  judgeModel?: string;
  /** Ask the judge model again where the judgments file has a judgment (`--refresh-judgments`). */
  refreshJudgments?: boolean;
  /** Trials at once (4), across every worker. */
  concurrency?: number;
  /**
   * Run the trials in this many worker processes (each with its own host of the fakes); this
   * process plans, keeps the budget and the provider limits, and writes the results file. Needs
   * the evals as a file and a host given as configuration (not an AgentHost object).
   */
  workers?: number;
  /** Only this part of the trials (`--shard 2/3`): the same split on every machine. */
  shard?: Shard;
  /** Requests in flight per provider (`{ anthropic: 8 }`), adapting down on 429s. */
  providerLimits?: Record<string, number>;
  /** Stop before the spend of every model request would cross this many US dollars. */
  budgetUsd?: number;
  /** Prices (dollars per million tokens) of models the table lacks, by `provider:model`. */
  prices?: Record<string, Price>;
  /**
   * A tool-description variant (a file, or one loaded): the model hosts offer its descriptions
   * and input schemas for this run only; each trial line records its id.
   */
  variant?: string | Variant;
  /**
   * The NDJSON results file: each trial appended as it ends; trials it already holds are skipped.
   * The run holds `<out>.lock` while it reads and writes it: a second run on the same file is refused.
   */
  out?: string;
  /** Start `out` again instead of resuming it (`--fresh`). */
  fresh?: boolean;
  /** Only cases with one of these tags. */
  filterTags?: readonly string[];
  /** Only these case ids. */
  cases?: readonly string[];
  /** Only the first N cases (a smoke run). */
  limit?: number;
  /** The most bytes of JSON one trial's world may hold (EVAL_SIMULATE_MAX_WORLD_BYTES; 64 MiB by default). */
  maxWorldBytes?: number;
  /** Where keys and settings are read (process.env). */
  env?: NodeJS.ProcessEnv;
  /** How each model request is retried (tests pass a sleep of their own; workers take only the numbers). */
  retry?: RetryOptions;
  /** Told of each trial as it ends, and of progress. */
  onTrial?: (line: TrialLine, progress: RunProgress) => void;
  /** Told of progress between trials too (a provider's limit changed). */
  onProgress?: (progress: RunProgress) => void;
  signal?: AbortSignal;
  warn?: (message: string) => void;
}

/** The summary, and the lines of every trial it was made from. */
export interface EvalsResult extends RunSummary {
  lines: TrialLine[];
  out?: string;
  /** Each limited provider's state at the end: how low its cap went, how many 429s. */
  limits?: LimitStatus[];
}

/** The judge's settings a worker is sent: its environment is the worker's own. */
const withoutEnv = ({ env: _env, ...settings }: RubricJudgeOptions) => settings;

/** Why a budget stopped the run. */
const budgetStop = (options: RunEvalsOptions, ledger: SpendLedger) => `the budget of $${options.budgetUsd} was reached ($${ledger.spentUsd.toFixed(4)} spent)`;

/**
 * Who judges the selected cases' rubrics: none without rubrics; with them, the judge's settings
 * and the judge models that will be asked (those with a key, unless the run is dry), whose prices
 * a budget needs. Throws for a rubric without a judge model, or --dry with --refresh-judgments.
 */
function judgingPlan(
  cases: readonly EvalCase[],
  evals: EvalsDocument,
  file: string | undefined,
  options: RunEvalsOptions,
  env: NodeJS.ProcessEnv,
): { judge?: RubricJudgeOptions; live: string[] } {
  const graded = cases.filter((c) => (c.expect.rubrics ?? []).length > 0);
  if (graded.length === 0) return { live: [] };
  if (file === undefined)
    throw new Error(
      "[eval-simulate] rubrics are judged with a judgments file beside the evals file: give runEvals the evals file's path (or `file` with the loaded document)",
    );
  if (options.dry && options.refreshJudgments)
    throw new Error("[eval-simulate] --refresh-judgments asks the judge model again, and --dry asks no model: leave one of them out");
  const settings = { judgeModel: evals.judgeModel, ...(options.judgeModel === undefined ? {} : { override: options.judgeModel }) };
  const used = judgeModels(graded, { ...settings, judgeBaseURL: evals.judgeBaseURL });
  const live = options.dry ? [] : used.filter((model) => missingKeys([{ model, baseURL: evals.judgeBaseURL }], env).length === 0);
  return {
    judge: { evalsFile: file, ...settings, judgeBaseURL: evals.judgeBaseURL, env, offline: options.dry === true, refresh: options.refreshJudgments === true },
    live,
  };
}

/**
 * Runs the evals and returns their summary: `failed` counts cases below their threshold,
 * `verdict` is pass, fail, preliminary (trials lost: exit 2) or skipped (no key: exit 0).
 *
 * @example
 * const result = await runEvals({ evals: "examples/crm/evals.yaml", dry: true });
 * expect(result.failed).toBe(0);
 */
export async function runEvals(options: RunEvalsOptions): Promise<EvalsResult> {
  // The file is loaded before its results are locked: one that cannot be run leaves no results
  // folder behind (an `eval` started in the wrong folder).
  const loaded = typeof options.evals === "string" ? await loadEvals(options.evals, { allowOutside: options.allowOutside }) : options.evals;
  const release = options.out ? lockResults(options.out, options.warn) : undefined;
  try {
    return await runLocked({ ...options, evals: loaded });
  } finally {
    release?.();
  }
}

async function runLocked(options: RunEvalsOptions & { evals: Exclude<RunEvalsOptions["evals"], string> }): Promise<EvalsResult> {
  const env = options.env ?? process.env;
  const loaded = options.evals;
  const { evals, fakes } = loaded;
  const cases = selectCases(evals.cases ?? [], options);
  const concurrency = options.concurrency ?? 4;
  const variant = typeof options.variant === "string" ? loadVariant(options.variant, selectionCatalog(fakes.fakes)) : options.variant;
  const origin = runOrigin(loaded.file);

  const choices = new Map(cases.map((c) => [c, hostConfig(c, options)]));
  const models = [...choices.values()].flatMap((h) => (!isAgentHost(h) && h.type === "model" ? [{ model: h.model, baseURL: h.baseURL }] : []));
  // A conversation's simulated user is a model of the run too (a script run plays its turns).
  for (const [c, h] of choices) if (c.user?.model && (isAgentHost(h) || h.type !== "script")) models.push({ model: c.user.model, baseURL: c.user.baseURL });
  const missing = missingKeys(models, env);
  const judging = judgingPlan(cases, evals, loaded.file, options, env);
  const priced = [...new Set([...models.map((m) => m.model).filter((m) => !missing.some((k) => k.model === m)), ...judging.live])];
  const ledger = new SpendLedger(options.budgetUsd, priced, options.prices);
  const judge = judging.judge ? rubricJudge({ ...judging.judge, ledger, retry: options.retry, signal: options.signal }) : undefined;
  let limits: ProviderLimits | undefined;
  let progress: () => RunProgress = () => ({ done: 0, total: 0, passed: 0, spentUsd: 0 });
  if (options.providerLimits) limits = new ProviderLimits(options.providerLimits, () => options.onProgress?.(progress()));
  const hosts = new TrialHosts({ env, ledger, retry: options.retry, ...(variant ? { variant } : {}), ...(limits ? { gate: limits } : {}) });

  const notes: string[] = [];
  if (missing.length > 0) notes.push(skipMessage(missing));
  if (variant && models.length === 0)
    options.warn?.(`[eval-simulate] warning: the variant ${variant.id} changes only what a model host offers; no case here runs a model`);
  if (options.out && options.fresh) rmSync(options.out, { force: true });
  const read = options.out ? readResultsFile(options.out, options.warn) : { lines: [] };
  // A torn last line (a run killed mid-append) is ended now, so the trials appended after it are lines of their own.
  if (options.out && read.torn !== undefined) repairTornLine(options.out, read.torn, options.warn);
  const previous = read.lines;
  // One results file holds one variant's run, so compare can tell the runs apart.
  const other = previous.find((line) => line.variant !== variant?.id);
  if (other)
    throw new Error(
      `[eval-simulate] ${options.out} holds a run ${other.variant ? `of variant ${other.variant}` : "without a variant"}: give this run its own --out (or --fresh)`,
    );
  const hashes = await caseHashes(cases, fakes);
  const plan = planTrials({
    cases,
    caseHash: (c) => hashes.get(c),
    choiceOf: (c) => choices.get(c)!,
    labelOf: (choice) => hosts.label(choice),
    missing,
    previous,
    ...(options.shard ? { shard: options.shard } : {}),
    ...(variant ? { variant: variant.id } : {}),
  });
  const lines = plan.lines;
  if (plan.resumed > 0) notes.push(`resumed: ${plan.resumed} trial${plan.resumed === 1 ? "" : "s"} already in ${options.out}`);
  if (plan.changed > 0)
    notes.push(
      `re-run: ${plan.changed} trial${plan.changed === 1 ? "" : "s"} in ${options.out} judged against another version of ${plan.changed === 1 ? "its" : "their"} case or fakes`,
    );
  if (options.shard && options.shard.count > 1) {
    const mine = plan.planned.reduce((n, p) => n + p.iterations, 0);
    notes.push(
      `shard ${shardLabel(options.shard)}: ${mine} of the run's ${plan.runTrials} trials; merge every shard's results (eval-simulate report a.ndjson b.ndjson …) for the run's verdict`,
    );
  }
  // What every line of this run carries, so files from several shards and machines merge.
  const stamp = {
    ...(options.shard ? { shard: shardLabel(options.shard) } : {}),
    runTrials: plan.runTrials,
    hostname: origin.hostname,
    ...(origin.gitSha ? { gitSha: origin.gitSha } : {}),
    ...(origin.evalsSha256 ? { evalsSha256: origin.evalsSha256 } : {}),
  };

  let stopped: string | undefined;
  let passed = lines.filter((l) => l.status === "pass").length;
  let finished = lines.length;
  const total = lines.length + plan.todo.length;
  progress = () => ({ done: finished, total, passed, spentUsd: ledger.spentUsd, ...(limits ? { limits: limits.statuses() } : {}) });
  if (plan.todo.length > 0) {
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const maxWorldBytes = options.maxWorldBytes ?? positiveInteger(env.EVAL_SIMULATE_MAX_WORLD_BYTES, "EVAL_SIMULATE_MAX_WORLD_BYTES");
    let runner: TrialRunner | undefined;
    try {
      runner = options.workers
        ? await workerTrials({
            workers: options.workers,
            evals: loaded.file,
            todo: plan.todo,
            dry: options.dry,
            host: options.host,
            variant: options.variant,
            env,
            ledger,
            limits,
            retry: options.retry,
            maxWorldBytes,
            ...(options.models ? { models: options.models } : {}),
            suite: origin.suite,
            ...(options.allowOutside ? { allowOutside: true } : {}),
            ...(judging.judge ? { judge: withoutEnv(judging.judge) } : {}),
            labelOf: (choice) => hosts.label(choice),
            signal: controller.signal,
            warn: options.warn,
          })
        : await localTrials({
            fakes,
            hosts,
            maxWorldBytes,
            signal: controller.signal,
            warn: options.warn,
            ...(origin.suite ? { suite: origin.suite } : {}),
            ...(variant ? { variant: variant.id } : {}),
            ...(judge ? { rubrics: judge } : {}),
            // A dry run plays scripts: no model is asked, and no cassette is written.
            ...(options.dry
              ? {}
              : { models: { ...(options.models ? { mode: options.models } : {}), ...(loaded.file ? { evalsFile: loaded.file } : {}), env } }),
          });
      const trials = runner;
      await runPool(
        plan.todo,
        concurrency,
        async (trial, _index, pool) => {
          if (!ledger.allows()) {
            stopped ??= budgetStop(options, ledger);
            return pool.stop();
          }
          const hash = hashes.get(trial.case);
          const line: TrialLine = { ...(await trials.run(trial)), ...stamp, ...(hash ? { caseHash: hash } : {}) };
          lines.push(line);
          if (options.out) appendResult(options.out, line);
          finished++;
          if (line.status === "pass") passed++;
          options.onTrial?.(line, progress());
          options.onProgress?.(progress());
          if (!ledger.allows()) {
            stopped ??= budgetStop(options, ledger);
            pool.stop();
          }
        },
        controller.signal,
      );
      if (options.signal?.aborted) stopped ??= "the run was interrupted";
    } catch (error) {
      if (!(error instanceof FatalRunError)) throw error;
      stopped = error.message.replace(/^\[eval-simulate\] /, "");
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
      // The parent's hosts name the trials; a worker run made none it must close.
      await Promise.allSettled([runner?.close(), options.workers ? hosts.close() : undefined]);
    }
  }
  const statuses = limits?.statuses();
  for (const s of statuses ?? [])
    if (s.rateLimited > 0)
      notes.push(
        `${s.provider}: ${s.rateLimited} request${s.rateLimited === 1 ? "" : "s"} answered 429; the limit went down to ${s.lowest} of ${s.max} (now ${s.limit})`,
      );
  if (judge && judge.unjudged.size > 0) notes.push(`[eval-simulate] rubrics not judged: ${[...judge.unjudged].join("; ")}`);
  const summary = summarize(lines, { planned: plan.planned, stopped, notes });
  return { ...summary, lines, ...(options.out ? { out: options.out } : {}), ...(statuses ? { limits: statuses } : {}) };
}
