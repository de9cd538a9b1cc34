/**
 * The rubric judge of `eval` and `verify`: each rubric judged from the cache when it can be, else
 * by a model through the AI SDK's structured output (the judgment's schema), charged to the run's
 * budget. A reply that is not a judgment is asked again (with why), then the rubric is not
 * evaluated; so is one whose requests fail. Without a key, or with `offline` (`--dry`), only the
 * cache judges: a rubric it lacks is unjudged, never passed.
 */
import { relative } from "node:path";
import type { LanguageModel } from "ai";
import type { JudgmentCost, RubricJudge, RubricJudgment, RubricRequest } from "../../judge/evals/index.js";
import { languageModel, loadAi, missingKey, ModelRequestError, parseModel, type RetryOptions, type SpendLedger } from "../models/index.js";
import { JUDGE_PROMPT_VERSION, JUDGE_SYSTEM, JUDGMENT_SCHEMA, type Judgment, judgePrompt, readJudgment, retryNote } from "./judge-prompt.js";
import { JudgmentCache, judgmentKey, judgmentsFile } from "./judgment-cache.js";

export interface RubricJudgeOptions {
  /** The evals file: the cache lives beside it. */
  evalsFile: string;
  /** The file's `judgeModel` and `judgeBaseURL`. */
  judgeModel?: string;
  judgeBaseURL?: string;
  /** `--judge-model`: judges every rubric, whatever it or the file names. */
  override?: string;
  env?: NodeJS.ProcessEnv;
  /** Judge from the cache only, never asking a model (`--dry`). */
  offline?: boolean;
  /** Ask again even when the cache has a judgment (`--refresh-judgments`); the new one replaces it. */
  refresh?: boolean;
  /** The run's spending: each judge request is charged to it and refused once it is spent. */
  ledger?: SpendLedger;
  retry?: RetryOptions;
  /** Replies read per rubric before it is not evaluated (3). */
  attempts?: number;
  signal?: AbortSignal;
}

/** A rubric judge, and what it could not judge for want of a key or a cached judgment. */
export interface RunRubricJudge extends RubricJudge {
  readonly cacheFile: string;
  /** Why rubrics went unjudged (distinct reasons), for the run's notes. */
  readonly unjudged: ReadonlySet<string>;
}

const ZERO: JudgmentCost = { requests: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 };

/**
 * The judge model a rubric is graded by: `--judge-model`, else the rubric's own, else the file's.
 *
 * @example judgeModelOf({ model: undefined }, { judgeModel: "openai:gpt-4.1-mini" }) // "openai:gpt-4.1-mini"
 */
export function judgeModelOf(rubric: { model?: string }, options: { judgeModel?: string; override?: string }): string | undefined {
  return options.override ?? rubric.model ?? options.judgeModel;
}

/**
 * The judge models the cases' rubrics need, each once; throws naming the rubrics that have none,
 * so a run stops before it starts rather than grading nothing.
 *
 * @example judgeModels(evals.cases, { judgeModel: evals.judgeModel }) // ["anthropic:claude-sonnet-4-5"]
 */
export function judgeModels(
  cases: ReadonlyArray<{ id: string; expect: { rubrics?: ReadonlyArray<{ name: string; model?: string }> } }>,
  options: { judgeModel?: string; override?: string; judgeBaseURL?: string },
): string[] {
  const models = new Set<string>();
  const lacking: string[] = [];
  for (const c of cases) {
    for (const rubric of c.expect.rubrics ?? []) {
      const model = judgeModelOf(rubric, options);
      if (model === undefined) lacking.push(`${c.id}: ${rubric.name}`);
      else models.add(model);
    }
  }
  if (lacking.length > 0)
    throw new Error(
      `[eval-simulate] no judge model for the rubric${lacking.length === 1 ? "" : "s"} ${lacking.map((l) => `"${l}"`).join(", ")}: set judgeModel at the top of the evals file, model on the rubric, or --judge-model`,
    );
  // A misspelt judge is refused now, not found out rubric by rubric.
  for (const model of models) parseModel(model, options.judgeBaseURL);
  return [...models];
}

/**
 * Makes the judge. The cache is read now (a broken file throws before anything runs).
 *
 * @example const judge = rubricJudge({ evalsFile: "evals.yaml", judgeModel: "anthropic:claude-sonnet-4-5", env: process.env });
 */
export function rubricJudge(options: RubricJudgeOptions): RunRubricJudge {
  const env = options.env ?? process.env;
  const cache = new JudgmentCache(judgmentsFile(options.evalsFile));
  const attempts = options.attempts ?? 3;
  const models = new Map<string, Promise<LanguageModel>>();
  const unjudged = new Set<string>();
  const fatal = new Map<string, string>();
  // Trials running at once with the same inputs (a script's iterations) share one request.
  const inflight = new Map<string, Promise<RubricJudgment>>();
  const skip = (reason: string): RubricJudgment => (unjudged.add(reason), { status: "unjudged", reason });

  async function ask(model: string, request: RubricRequest, key: string): Promise<RubricJudgment> {
    const spec = parseModel(model, options.judgeBaseURL);
    const budget = options.ledger?.forModel(model);
    const spent: JudgmentCost = { requests: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 };
    const charge = (usage: { inputTokens?: number; outputTokens?: number } | undefined) => {
      const counted = { inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0 };
      spent.requests++;
      spent.usage.inputTokens += counted.inputTokens;
      spent.usage.outputTokens += counted.outputTokens;
      spent.costUsd += budget?.charge(counted) ?? 0;
    };
    let ai: Awaited<ReturnType<typeof loadAi>>;
    try {
      ai = await loadAi();
    } catch (error) {
      return { status: "error", reason: (error as Error).message.replace(/^\[eval-simulate\] /, ""), model };
    }
    const { generateText, Output, jsonSchema, NoObjectGeneratedError } = ai;
    let instance = models.get(model);
    if (!instance) models.set(model, (instance = languageModel(spec, env, { ...options.retry }, {})));
    let why: string | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (budget && !budget.allows()) return { status: "error", reason: `the budget was spent before ${model} could judge it`, model, ...spent };
      let reply: unknown;
      try {
        const result = await generateText({
          model: await instance,
          system: JUDGE_SYSTEM,
          prompt: judgePrompt(request) + (why ? retryNote(why) : ""),
          output: Output.object({
            schema: jsonSchema(JUDGMENT_SCHEMA as unknown as Parameters<typeof jsonSchema>[0]),
            name: "judgment",
            description: "The grade of the agent's answer against the criterion.",
          }),
          temperature: 0,
          maxOutputTokens: 1_000,
          maxRetries: 0,
          abortSignal: options.signal,
        });
        charge(result.usage);
        reply = result.output;
      } catch (error) {
        // A reply that is not JSON of the schema: its tokens were spent all the same.
        if (NoObjectGeneratedError.isInstance(error)) {
          charge(error.usage);
          why = `it did not parse as the judgment's JSON${error.text ? `: ${JSON.stringify(error.text.slice(0, 200))}` : ""}`;
          continue;
        }
        const message = (error as Error).message?.replace(/^\[eval-simulate\] /, "") ?? String(error);
        // A bad key, billing or an unknown model fails every request alike: the rest are not sent.
        const request = error instanceof ModelRequestError ? error : (error as { cause?: unknown }).cause;
        if (request instanceof ModelRequestError && request.classification.kind === "fatal") fatal.set(model, message);
        return { status: "error", reason: `${model} could not judge it: ${message}`, model, ...spent };
      }
      const read = readJudgment(reply);
      if (!read.ok) {
        why = read.why;
        continue;
      }
      cache.set(key, { case: request.case, rubric: request.name, model, promptVersion: JUDGE_PROMPT_VERSION, ...read.judgment });
      return judged(model, read.judgment, key, false, spent);
    }
    return {
      status: "error",
      reason: `${model} gave no valid judgment in ${attempts} attempt${attempts === 1 ? "" : "s"} (the last: ${why})`,
      model,
      ...spent,
    };
  }

  return {
    cacheFile: cache.file,
    unjudged,
    async judge(request) {
      const model = judgeModelOf(request, options);
      if (model === undefined)
        return { status: "error", reason: "no judge model: set judgeModel at the top of the evals file, model on the rubric, or --judge-model" };
      let spec;
      try {
        spec = parseModel(model, options.judgeBaseURL);
      } catch (error) {
        return { status: "error", reason: (error as Error).message.replace(/^\[eval-simulate\] /, ""), model };
      }
      const key = judgmentKey(request, model);
      const hit = options.refresh ? undefined : cache.get(key);
      if (hit) return judged(model, hit, key, true, ZERO);
      if (options.offline)
        return skip(`no judgment cached in ${relative(process.cwd(), cache.file) || cache.file} for ${model} (--dry judges rubrics from the cache only)`);
      const variable = missingKey(spec, env);
      if (variable) return skip(`no judgment cached and no key: set ${variable} to judge with ${model}`);
      const failure = fatal.get(model);
      if (failure) return { status: "error", reason: `${model} could not judge it: ${failure} (an earlier request; not asked again)`, model };
      const pending = inflight.get(key);
      if (pending) {
        const shared = await pending;
        return shared.status === "judged" ? { ...shared, cached: true, ...ZERO } : shared;
      }
      const asked = ask(model, request, key).finally(() => inflight.delete(key));
      inflight.set(key, asked);
      return asked;
    },
  };
}

function judged(model: string, judgment: Judgment, key: string, cached: boolean, cost: JudgmentCost): RubricJudgment {
  return { status: "judged", model, verdict: judgment.verdict, score: judgment.score, reasoning: judgment.reasoning, cached, key, ...cost };
}
