/**
 * What runs the agent in a trial: the script host (a case's own calls, free and offline), a
 * model in-process, an agent CLI, or a host of your own. Every one implements `AgentHost`, and
 * `test/hosts/agent-host-suite.ts` holds every one to the same contract.
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import type { LoadedFakes } from "../../author/fakes/index.js";
import type { Session } from "../../serve/host/index.js";
import type { ModelBaseUrls } from "../../serve/models/index.js";
import type { Usage } from "../models/index.js";
import type { AgentTurn, UserSimulator } from "./agent-turn.js";

/** One trial as a host sees it. */
export interface AgentTrial {
  /** The case: its `prompt`, `system`, `maxSteps`, `script`, and the rest of what `evals.yaml` gives. */
  case: EvalCase;
  /** Which trial of the case this is, from 0. */
  iteration: number;
  /**
   * The trial's own world, fresh from the case's scenario and clock, at secret addresses: the
   * agent makes every call through it (`mcpServers()`, `url(id)` for MCP, `baseUrl(id)` for an
   * API). The session records each call; the judge reads that record, not the host's account.
   */
  session: Session;
  /** The fakes the session serves, as loaded (to resolve a tool name, as the script host does). */
  fakes: LoadedFakes;
  /**
   * The model endpoints of the trial's session, when its case has a `models:` block: base URLs
   * an agent's SDK takes (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`), answered from the case's
   * script or cassette, or recorded (engine/eval/cassettes/).
   */
  models?: ModelBaseUrls;
  /** Aborted when the run is stopped from outside (`runEvals`' `signal`, Ctrl-C in the CLI). */
  signal: AbortSignal;
  /**
   * Set when the case is a conversation (`user:` or `turns:`): `run` is called once per turn, in
   * the same session, with `case.prompt` (and `case.script`) set to this turn's. Absent for a
   * single-turn case.
   */
  turn?: AgentTurn;
  /** In a conversation: the trial's simulated user, for a host to put the agent's own questions to (an elicitation). */
  user?: UserSimulator;
  /**
   * The trial's span as a W3C `traceparent` when tracing is on (docs/tracing.md): continue it in
   * the agent's requests (`params._meta.traceparent` on MCP, the `traceparent` header on HTTP).
   */
  traceparent?: string;
}

/** What the agent did, besides its calls. */
export interface AgentOutcome {
  /** Its final message, when it gave one: what `answer` assertions read. */
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
  /** In a conversation: what the host needs back on its next turn (`AgentTurn.carry`), its history. */
  carry?: unknown;
}

/**
 * A way of running the agent: pass one as `runEvals({ host })` to run every case with it.
 *
 * The contract every host keeps (`test/hosts/agent-host-suite.ts` checks it of each one):
 * - `run(trial)` runs the agent once, in `trial.session`, and resolves when the agent is done.
 *   Requests reaching outside it are refused, and counted on the trial's line (`outside`).
 * - It resolves with an `AgentOutcome`: the final message as `answer`, the requests, usage and
 *   cost it spent (zeros for a host without a model), and `outcome` only when the trial is not
 *   the agent's work to score: `not_run` (not scored; the run is PRELIMINARY) or `fail` (judged
 *   on what it did, with `reason` as a failed assertion).
 * - A thrown `FatalRunError` stops the whole run (a bad key: no trial could pass); the trials
 *   not yet started are not run. Any other thrown error makes this trial `not_run`, with the
 *   error's message as its reason; the calls it made stay on its line as evidence.
 * - When `trial.signal` aborts, it stops the agent promptly, makes no further calls and settles
 *   (resolving or throwing). The runner starts no further trials and reports the run interrupted.
 * - Trials run concurrently (`concurrency`), each in a session of its own: `run` keeps no
 *   per-trial state on the host.
 * - In a conversation `run` is called once per turn with `trial.turn` set, in one session: the
 *   host keeps its history by handing it back as `carry` (or through its own CLI's `--resume`).
 * - `close()`, when given, frees what the host holds across trials; `runEvals` calls it on the
 *   hosts it made from cases' `host:` blocks. A host passed in is the caller's to close.
 *
 * @example
 * const host: AgentHost = {
 *   label: "my-agent",
 *   async run({ case: c, session, signal }) {
 *     const answer = await myAgent(c.prompt, session.mcpServers(), { signal });
 *     return { answer, requests: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 };
 *   },
 * };
 * await runEvals({ evals: "evals.yaml", host });
 */
export interface AgentHost {
  /** Names it in results (each line's `model`): `script`, `command:<program>`, `provider:model`. */
  readonly label: string;
  run(trial: AgentTrial): Promise<AgentOutcome>;
  /**
   * Frees what a conversation's last `carry` holds (connections kept open across its turns),
   * called once when the conversation ends, however it ends.
   */
  endConversation?(carry: unknown): Promise<void>;
  /** Frees what it holds across trials. */
  close?(): Promise<void>;
}

/**
 * Thrown by a host when the whole run must stop: a fatal provider error (a bad key, billing, an
 * unknown model), or anything else no further trial could survive.
 *
 * @example throw new FatalRunError("[eval-simulate] anthropic:claude-sonnet-4-5: HTTP 401 invalid x-api-key");
 */
export class FatalRunError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FatalRunError";
  }
}

/** No model usage: the outcome of a host that makes no model requests. */
export const NO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0 });
