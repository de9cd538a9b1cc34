/**
 * What a run will do before it starts: the cases selected, the host each runs with, its trials
 * (this shard's, with `--shard`), and of those the ones the results file already holds judged
 * against the same case and fakes (resumed), the ones no key lets run (skipped) and the rest, to
 * run (with those whose case or fakes changed since, counted).
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import type { AgentHost } from "../hosts/index.js";
import type { CommandHostConfig, ModelHostConfig } from "../hosts/index.js";
import type { missingKeys } from "../models/index.js";
import { doneLines, type PlannedCase, type TrialLine, trialKey } from "../results/index.js";
import { inShard, type Shard } from "./shard.js";
import { caseFields } from "./trial.js";

/** How to run the agent, for every case (overriding each case's `host`). */
export type HostChoice = { type: "script" } | ({ type: "model" } & ModelHostConfig) | ({ type: "command" } & CommandHostConfig) | AgentHost;

export const isAgentHost = (choice: HostChoice): choice is AgentHost => "run" in choice && typeof choice.run === "function";

/** Which host runs a case: the script with `dry`, else the run's host, else the case's own. */
export function hostConfig(c: EvalCase, options: { dry?: boolean; host?: HostChoice }): HostChoice {
  if (options.dry) return { type: "script" };
  if (options.host) return options.host;
  return c.host ?? { type: "script" };
}

/** The missing key of a conversation's simulated user, when the run asks its model (a script run plays its turns). */
function userKeyless(c: EvalCase, choice: HostChoice, missing: PlanInput["missing"]) {
  if (!c.user?.model || (!isAgentHost(choice) && choice.type === "script")) return undefined;
  return missing.find((m) => m.model === c.user!.model);
}

/** The cases a run selects: `cases`, `filterTags`, then the first `limit`. */
export function selectCases(all: readonly EvalCase[], options: { cases?: readonly string[]; filterTags?: readonly string[]; limit?: number }): EvalCase[] {
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

/** One trial to run. */
export interface PlannedTrial {
  case: EvalCase;
  iteration: number;
  choice: HostChoice;
}

export interface TrialPlan {
  /** Per case, the trials this run (this shard) holds of it. */
  planned: PlannedCase[];
  /** Lines already known: resumed from the results file, and skipped for want of a key. */
  lines: TrialLine[];
  todo: PlannedTrial[];
  /** Trials of the whole run, every shard's. */
  runTrials: number;
  resumed: number;
  /** Stored trials judged against another version of their case or fakes (or before hashes were stored): run again. */
  changed: number;
}

export interface PlanInput {
  cases: readonly EvalCase[];
  choiceOf: (c: EvalCase) => HostChoice;
  labelOf: (choice: HostChoice) => string;
  /** Models without a key (their trials are skipped). */
  missing: ReturnType<typeof missingKeys>;
  previous: readonly TrialLine[];
  shard?: Shard;
  variant?: string;
  /** Each case's hash (case-hash.ts): a stored trial is reused only when it carries the same. */
  caseHash?: (c: EvalCase) => string | undefined;
}

/**
 * The run's plan.
 *
 * @example const plan = planTrials({ cases, choiceOf, labelOf, missing: [], previous: [] });
 */
export function planTrials(input: PlanInput): TrialPlan {
  const all = input.cases.flatMap((c) => {
    const choice = input.choiceOf(c);
    const label = input.labelOf(choice);
    return Array.from({ length: caseFields(c).iterations! }, (_, iteration) => ({ case: c.id, iteration, source: c, choice, label }));
  });
  const mine = input.shard ? inShard(all, input.shard) : all;
  const done = doneLines(input.previous);
  let changed = 0;
  const planned = new Map<EvalCase, PlannedCase>();
  const lines: TrialLine[] = [];
  const todo: PlannedTrial[] = [];
  for (const trial of mine) {
    const c = trial.source;
    const fields = caseFields(c);
    const plan = planned.get(c) ?? {
      case: c.id,
      model: trial.label,
      iterations: 0,
      accuracyThreshold: fields.accuracyThreshold!,
      ...(fields.minScore === undefined ? {} : { minScore: fields.minScore }),
    };
    plan.iterations++;
    planned.set(c, plan);
    const k = trialKey({ case: c.id, iteration: trial.iteration, model: trial.label });
    const stored = done.get(k);
    if (stored) {
      const hash = input.caseHash?.(c);
      if (hash === undefined || stored.caseHash === hash) {
        lines.push(stored);
        continue;
      }
      changed++;
    }
    const keyless =
      (!isAgentHost(trial.choice) && trial.choice.type === "model" && input.missing.find((m) => m.model === (trial.choice as { model: string }).model)) ||
      userKeyless(c, trial.choice, input.missing);
    if (keyless) {
      lines.push({
        case: c.id,
        iteration: trial.iteration,
        model: trial.label,
        ...fields,
        ...(input.variant ? { variant: input.variant } : {}),
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
    todo.push({ case: c, iteration: trial.iteration, choice: trial.choice });
  }
  // The cases in the evals file's order, as the run's own report lists them.
  const ordered = input.cases.flatMap((c) => (planned.has(c) ? [planned.get(c)!] : []));
  return { planned: ordered, lines, todo, runTrials: all.length, resumed: lines.filter((line) => line.status !== "skipped").length, changed };
}
