/**
 * What runs the agent in a trial: the script host (a case's own calls, free and offline), a
 * model in-process, or any agent CLI. Each gets the trial's session and gives back what the
 * agent did beyond its calls (which the session's record already holds).
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import type { LoadedFakes } from "../../author/fakes/index.js";
import type { Session } from "../../serve/host/index.js";
import type { Usage } from "../models/index.js";

/** One trial as a host sees it. */
export interface AgentTrial {
  case: EvalCase;
  iteration: number;
  session: Session;
  fakes: LoadedFakes;
  signal: AbortSignal;
}

/** What the agent did, besides its calls. */
export interface AgentOutcome {
  /** Its final message, when it gave one. */
  answer?: string;
  /** What was said, when the host keeps it (the model host's messages): rubric judges read it. */
  transcript?: unknown;
  /** Model requests made. */
  requests: number;
  usage: Usage;
  costUsd: number;
  /**
   * Set when the trial must not be scored as the agent's work: `not_run` (lost to infrastructure:
   * requests that kept failing, the budget, an agent command that could not run), or `fail`
   * (the agent's own fault outside the judge: a timeout, a script that is not runnable).
   */
  outcome?: { status: "not_run" | "fail"; reason: string };
}

/** A way of running the agent. */
export interface AgentHost {
  /** Names it in results: `script`, `command:<program>`, `provider:model`. */
  readonly label: string;
  run(trial: AgentTrial): Promise<AgentOutcome>;
  /** Frees what it holds across trials. */
  close?(): Promise<void>;
}

/** A fatal provider error (a bad key, billing, an unknown model): the whole run stops at once. */
export class FatalRunError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FatalRunError";
  }
}

export const NO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0 });
