/**
 * `runEvals`: every case of an evals file, `iterations` trials each, with bounded concurrency on
 * one host of the fakes (a session per trial), judged, appended to the results file as they end
 * (resumed from it), and summarized.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import type { EvalCase, EvalsDocument } from "../../../schema/evals/evals.js";
import type { LoadedFakes } from "../../author/fakes/index.js";
import { positiveInteger } from "../../serve/http/index.js";
import { startServices } from "../../serve/host/index.js";
import { loadEvals } from "../../judge/evals/index.js";
import { selectionCatalog } from "../../judge/selection/index.js";
import { loadVariant, type Variant } from "../../judge/selection/index.js";
import { type AgentHost, FatalRunError } from "../hosts/index.js";
import { commandHost, type CommandHostConfig } from "../hosts/index.js";
import { judgeModels, rubricJudge, type RubricJudgeOptions } from "../rubrics/index.js";
import { runPool } from "./concurrency-pool.js";
import { missingKeys, skipMessage } from "../models/index.js";
import { modelHost, type ModelHostConfig } from "../hosts/index.js";
import type { Price } from "../models/index.js";
import { RecordCollector } from "./record-collector.js";
import { appendResult, doneTrials, lockResults, readResultsFile, repairTornLine, type TrialLine, trialKey } from "../results/index.js";
import type { RetryOptions } from "../models/index.js";
import { SpendLedger } from "../models/index.js";
import { type PlannedCase, type RunSummary, summarize } from "../results/index.js";
import { scriptHost } from "../hosts/index.js";
import { caseFields, runTrial } from "./trial.js";

/** How to run the agent, for every case (overriding each case's `host`). */
export type HostChoice = { type: "script" } | ({ type: "model" } & ModelHostConfig) | ({ type: "command" } & CommandHostConfig) | AgentHost;

export interface RunEvalsOptions {
  /** An evals.yaml path, or a document already loaded with its fakes. */
  evals: string | { evals: EvalsDocument; fakes: LoadedFakes; file?: string };
  /** With an evals path: load a fakes manifest outside its folder (`--allow-outside`). */
  allowOutside?: boolean;
  /** Every case runs with this host instead of its own. */
  host?: HostChoice;
  /** Every case plays its script (free, offline); rubrics are judged from the judgments file only. */
  dry?: boolean;
  /** Judge every rubric with this model (`--judge-model`), whatever the file and the rubrics name. */
  judgeModel?: string;
  /** Ask the judge model again where the judgments file has a judgment (`--refresh-judgments`). */
  refreshJudgments?: boolean;
  /** Trials at once (4). */
  concurrency?: number;
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
  /** How each model request is retried (tests pass a sleep of their own). */
  retry?: RetryOptions;
  /** Told of each trial as it ends, and of progress. */
  onTrial?: (line: TrialLine, progress: { done: number; total: number; passed: number; spentUsd: number }) => void;
  signal?: AbortSignal;
  warn?: (message: string) => void;
}

/** The summary, and the lines of every trial it was made from. */
export interface EvalsResult extends RunSummary {
  lines: TrialLine[];
  out?: string;
}

/** Which host runs a case. */
function hostConfig(c: EvalCase, options: RunEvalsOptions): HostChoice {
  if (options.dry) return { type: "script" };
  if (options.host) return options.host;
  return c.host ?? { type: "script" };
}

const isAgentHost = (choice: HostChoice): choice is AgentHost => "run" in choice && typeof choice.run === "function";

/** The cases a run selects: `cases`, `filterTags`, then the first `limit`. */
function selectCases(all: readonly EvalCase[], options: RunEvalsOptions): EvalCase[] {
  let cases = [...all];
  if (options.cases?.length) {
    const unknown = options.cases.filter((id) => !all.some((c) => c.id === id));
    if (unknown.length > 0)
      throw new Error(`[eval-simulate] no case ${unknown.map((id) => `"${id}"`).join(", ")}; the cases: ${all.map((c) => c.id).join(", ")}`);
    cases = cases.filter((c) => options.cases!.includes(c.id));
  }
  if (options.filterTags?.length) cases = cases.filter((c) => (c.tags ?? []).some((tag) => options.filterTags!.includes(tag)));
  if (options.limit !== undefined) cases = cases.slice(0, options.limit);
  return cases;
}

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
  const release = options.out ? lockResults(options.out, options.warn) : undefined;
  try {
    return await runLocked(options);
  } finally {
    release?.();
  }
}

async function runLocked(options: RunEvalsOptions): Promise<EvalsResult> {
  const env = options.env ?? process.env;
  const loaded = typeof options.evals === "string" ? await loadEvals(options.evals, { allowOutside: options.allowOutside }) : options.evals;
  const { evals, fakes } = loaded;
  const cases = selectCases(evals.cases ?? [], options);
  const concurrency = options.concurrency ?? 4;
  const variant = typeof options.variant === "string" ? loadVariant(options.variant, selectionCatalog(fakes.fakes)) : options.variant;

  // Hosts, made once per distinct configuration.
  const configs = new Map<EvalCase, HostChoice>(cases.map((c) => [c, hostConfig(c, options)]));
  const models = [...configs.values()].flatMap((h) => (!isAgentHost(h) && h.type === "model" ? [{ model: h.model, baseURL: h.baseURL }] : []));
  const missing = missingKeys(models, env);
  const judging = judgingPlan(cases, evals, loaded.file, options, env);
  const ledger = new SpendLedger(
    options.budgetUsd,
    [...new Set([...models.map((m) => m.model).filter((m) => !missing.some((k) => k.model === m)), ...judging.live])],
    options.prices,
  );
  const judge = judging.judge ? rubricJudge({ ...judging.judge, ledger, retry: options.retry, signal: options.signal }) : undefined;
  const hosts = new Map<string, AgentHost>();
  const hostOf = (choice: HostChoice): AgentHost => {
    if (isAgentHost(choice)) return choice;
    const id = JSON.stringify(choice);
    let host = hosts.get(id);
    if (!host) {
      if (choice.type === "model") host = modelHost(choice, { env, ledger, retry: options.retry, ...(variant ? { variant } : {}) });
      else if (choice.type === "command") host = commandHost(choice);
      else host = scriptHost();
      hosts.set(id, host);
    }
    return host;
  };
  const labelOf = (choice: HostChoice) => (isAgentHost(choice) ? choice.label : choice.type === "model" ? choice.model : hostOf(choice).label);

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
  const done = doneTrials(previous);
  const planned: PlannedCase[] = [];
  const lines: TrialLine[] = [];
  const todo: Array<{ case: EvalCase; iteration: number; host: AgentHost }> = [];
  for (const c of cases) {
    const choice = configs.get(c)!;
    const label = labelOf(choice);
    const fields = caseFields(c);
    planned.push({
      case: c.id,
      model: label,
      iterations: fields.iterations!,
      accuracyThreshold: fields.accuracyThreshold!,
      ...(fields.minScore === undefined ? {} : { minScore: fields.minScore }),
    });
    const keyless = !isAgentHost(choice) && choice.type === "model" && missing.find((m) => m.model === choice.model);
    for (let iteration = 0; iteration < fields.iterations!; iteration++) {
      const k = trialKey({ case: c.id, iteration, model: label });
      if (done.has(k)) {
        lines.push(previous.find((line) => trialKey(line) === k)!);
        continue;
      }
      if (keyless) {
        lines.push({
          case: c.id,
          iteration,
          model: label,
          ...fields,
          ...(variant ? { variant: variant.id } : {}),
          status: "skipped",
          reason: `no API key: set ${keyless.variable}`,
          assertions: [],
          calls: 0,
          requests: 0,
          usage: { inputTokens: 0, outputTokens: 0 },
          costUsd: 0,
          durationMs: 0,
          startedAt: new Date().toISOString(),
        });
        continue;
      }
      todo.push({ case: c, iteration, host: hostOf(choice) });
    }
  }
  const resumed = lines.filter((line) => line.status !== "skipped").length;
  if (resumed > 0) notes.push(`resumed: ${resumed} trial${resumed === 1 ? "" : "s"} already in ${options.out}`);

  let stopped: string | undefined;
  if (todo.length > 0) {
    const records = new RecordCollector();
    // The session and admin routes behind a token only this process holds, and no world but the
    // trials' own: an agent can neither list, reset nor read another trial's session, nor share one.
    const services = await startServices(fakes.fakes, {
      world: fakes.world,
      onRecord: records.listener,
      onOutside: records.outside,
      adminToken: randomBytes(32).toString("base64url"),
      sessionsOnly: true,
      maxWorldBytes: options.maxWorldBytes ?? positiveInteger(env.EVAL_SIMULATE_MAX_WORLD_BYTES, "EVAL_SIMULATE_MAX_WORLD_BYTES"),
      warn: options.warn,
    });
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    let passed = lines.filter((l) => l.status === "pass").length;
    let finished = lines.length;
    const total = lines.length + todo.length;
    try {
      await runPool(
        todo,
        concurrency,
        async (trial, _index, pool) => {
          if (!ledger.allows()) {
            stopped ??= `the budget of $${options.budgetUsd} was reached ($${ledger.spentUsd.toFixed(4)} spent)`;
            return pool.stop();
          }
          const line = await runTrial({
            host: trial.host,
            case: trial.case,
            iteration: trial.iteration,
            services,
            fakes,
            records,
            signal: controller.signal,
            suite: loaded.file,
            ...(variant ? { variant: variant.id } : {}),
            ...(judge ? { rubrics: judge } : {}),
          });
          lines.push(line);
          if (options.out) appendResult(options.out, line);
          finished++;
          if (line.status === "pass") passed++;
          options.onTrial?.(line, { done: finished, total, passed, spentUsd: ledger.spentUsd });
          if (!ledger.allows()) {
            stopped ??= `the budget of $${options.budgetUsd} was reached ($${ledger.spentUsd.toFixed(4)} spent)`;
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
      await Promise.allSettled([...hosts.values()].map((host) => host.close?.()));
      await services.close();
    }
  }
  if (judge && judge.unjudged.size > 0) notes.push(`[eval-simulate] rubrics not judged: ${[...judge.unjudged].join("; ")}`);
  const summary = summarize(lines, { planned, stopped, notes });
  return { ...summary, lines, ...(options.out ? { out: options.out } : {}) };
}
