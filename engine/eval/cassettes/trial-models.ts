/**
 * A trial's model endpoints, for the runner: when its case has a `models:` block, its traffic
 * opened in the run's mode and served on the fakes' port at the session's secret address (no
 * other trial can reach it), and its base URLs handed to the host.
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import type { Services, Session } from "../../serve/host/index.js";
import { type ModelBaseUrls, modelBaseUrls } from "../../serve/models/index.js";
import type { AgentOutcome } from "../hosts/index.js";
import { cassettePath } from "./cassette-file.js";
import { type ModelsMode, openModelTraffic } from "./model-traffic.js";

/** What a run says of its cases' model traffic. */
export interface RunModels {
  /** `record` (`--record-models`), `replay` (`--replay-models`), or by each case (script, else its cassette, else live). */
  mode?: ModelsMode;
  /** The evals file the cassettes are kept beside. */
  evalsFile?: string;
  /** Where the real provider's base URL and key are read, to record. */
  env: NodeJS.ProcessEnv;
}

/** A trial's model endpoints while its agent runs. */
export interface TrialModels {
  urls: ModelBaseUrls;
  /** Stops serving them and settles the trial's outcome (see `ModelTraffic.settle`). */
  settle(outcome: AgentOutcome): AgentOutcome;
}

/**
 * Serves a trial's model endpoints, or undefined when its case asks for none.
 *
 * @example const models = trialModels(run, c, iteration, session, services); outcome = models?.settle(outcome) ?? outcome;
 */
export function trialModels(run: RunModels, c: EvalCase, iteration: number, session: Session, services: Services): TrialModels | undefined {
  if (!c.models) return undefined;
  const traffic = openModelTraffic({
    caseId: c.id,
    iteration,
    models: c.models,
    ...(run.evalsFile ? { cassette: cassettePath(run.evalsFile, c.id, iteration) } : {}),
    ...(run.mode ? { mode: run.mode } : {}),
    env: run.env,
    clock: session.clock,
  });
  services.models.serve(session.id, traffic.responder);
  return {
    urls: modelBaseUrls(services.origin, session.address),
    settle(outcome) {
      services.models.drop(session.id);
      return traffic.settle(outcome);
    },
  };
}
