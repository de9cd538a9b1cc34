/**
 * The selection run: each fixture's query sent with the whole catalog, a tool call forced, one
 * turn, nothing executed; one NDJSON line per trial, appended as it ends, so a stopped run keeps
 * what it finished and a rerun resumes. A request that keeps failing transiently makes its trial
 * `not_run` (never a wrong choice); a fatal one stops the run; so does the budget.
 */
import type { LanguageModel } from "ai";
import { runPool } from "./concurrency-pool.js";
import { ModelOutputError } from "../models/index.js";
import { ModelRequestError } from "../models/index.js";
import { appendResult, type TrialLine } from "../results/index.js";
import type { SpendLedger } from "../models/index.js";
import { selectTools } from "../models/index.js";
import type { SelectionCatalog } from "../../judge/selection/index.js";
import type { ResolvedFixture } from "../../judge/selection/index.js";
import { top1Hit } from "../../judge/selection/index.js";

/** A selection trial's line: a TrialLine (pass when the first call is expected) and what was picked. */
export interface SelectionLine extends TrialLine {
  kind: "selection";
  area: string;
  /** `server/tool` ids a good agent picks. */
  expected: string[];
  /** What the model called, in order (`server/tool`; a name the catalog does not hold as called). */
  chosen: string[];
  /** The variant the catalog was served with, if any. */
  variant?: string;
}

/** The system prompt when the evals file gives none: pick, do not answer. */
export const DEFAULT_SELECTION_SYSTEM =
  "You route a user's request to the tools of the connected MCP servers. Call the tool (or tools) that best serves the request, with your best arguments. Do not answer in text.";

export interface SelectionRunOptions {
  fixtures: readonly ResolvedFixture[];
  catalog: SelectionCatalog;
  model: LanguageModel;
  /** `provider:model`, as lines and the budget name it. */
  modelId: string;
  ledger: SpendLedger;
  iterations?: number;
  concurrency?: number;
  system?: string;
  variant?: string;
  suite?: string;
  /** Trial keys already done (resume): `case#iteration@model`. */
  done?: ReadonlySet<string>;
  /** The results file lines are appended to, if any. */
  out?: string;
  signal?: AbortSignal;
  /** Told of each line as it is written. */
  onLine?: (line: SelectionLine) => void;
}

export interface SelectionRun {
  lines: SelectionLine[];
  /** Trials never started: the budget, a fatal error or an abort stopped the run. */
  unstarted: number;
  /** Why the run stopped early, if it did. */
  stopped?: "budget" | "fatal" | "aborted";
  fatal?: string;
}

/**
 * Runs the trials not yet done.
 *
 * @example const run = await runSelection({ fixtures, catalog, model, modelId, ledger: new SpendLedger(5, [modelId]) });
 */
export async function runSelection(options: SelectionRunOptions): Promise<SelectionRun> {
  const iterations = options.iterations ?? 1;
  const trials = options.fixtures.flatMap((fixture) => Array.from({ length: iterations }, (_, iteration) => ({ fixture, iteration })));
  const pending = trials.filter((t) => !options.done?.has(`${t.fixture.id}#${t.iteration}@${options.modelId}`));
  const offered = options.catalog.tools.map((t) => ({
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    inputSchema: t.inputSchema,
  }));
  const budget = options.ledger.forModel(options.modelId);
  const lines: SelectionLine[] = [];
  let stopped: SelectionRun["stopped"];
  let fatal: string | undefined;
  let started = 0;
  await runPool(
    pending,
    options.concurrency ?? 4,
    async ({ fixture, iteration }, _index, pool) => {
      if (!budget.allows()) {
        stopped ??= "budget";
        return pool.stop();
      }
      started++;
      const startedAt = new Date();
      const base = {
        kind: "selection" as const,
        case: fixture.id,
        iteration,
        model: options.modelId,
        area: fixture.area,
        expected: fixture.expected,
        ...(options.variant ? { variant: options.variant } : {}),
        ...(options.suite ? { suite: options.suite } : {}),
        assertions: [],
        calls: 0,
        startedAt: startedAt.toISOString(),
      };
      let line: SelectionLine;
      try {
        const selection = await selectTools({
          model: options.model,
          query: fixture.query,
          catalog: offered,
          system: options.system ?? DEFAULT_SELECTION_SYSTEM,
          signal: options.signal,
        });
        const costUsd = budget.charge(selection.usage);
        const chosen = selection.tools.map((name) => options.catalog.offered(name)?.id ?? name);
        const pass = top1Hit({ expected: fixture.expected, chosen });
        line = { ...base, status: pass ? "pass" : "fail", chosen, requests: 1, usage: selection.usage, costUsd, durationMs: Date.now() - startedAt.getTime() };
      } catch (error) {
        if (error instanceof ModelOutputError) {
          // The model answered, with a pick nobody can take: a wrong choice, not a lost trial.
          line = {
            ...base,
            status: "fail",
            reason: error.message.replace(/^\[eval-simulate\] /, ""),
            chosen: [],
            requests: 1,
            usage: { inputTokens: 0, outputTokens: 0 },
            costUsd: 0,
            durationMs: Date.now() - startedAt.getTime(),
          };
        } else {
          const kind = error instanceof ModelRequestError ? error.classification.kind : "fatal";
          const reason =
            error instanceof ModelRequestError ? error.message : `[eval-simulate] the selection request failed: ${(error as Error)?.message ?? error}`;
          if (options.signal?.aborted) stopped ??= "aborted";
          else if (kind === "fatal") {
            // A bad key, billing or an unknown model fails every request alike: stop at once.
            stopped ??= "fatal";
            fatal ??= reason;
            pool.stop();
          }
          const attempts = error instanceof ModelRequestError ? error.attempts : 1;
          line = {
            ...base,
            status: "not_run",
            reason,
            chosen: [],
            requests: attempts,
            usage: { inputTokens: 0, outputTokens: 0 },
            costUsd: 0,
            durationMs: Date.now() - startedAt.getTime(),
          };
        }
      }
      lines.push(line);
      if (options.out) appendResult(options.out, line);
      options.onLine?.(line);
    },
    options.signal,
  );
  if (options.signal?.aborted) stopped ??= "aborted";
  return { lines, unstarted: pending.length - started, ...(stopped ? { stopped } : {}), ...(fatal ? { fatal } : {}) };
}
