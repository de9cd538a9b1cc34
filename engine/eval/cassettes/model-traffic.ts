/**
 * One trial's model traffic, answered in one of four modes: `script` (the case's `models.script`,
 * one answer per request), `record` (proxied to the real provider, each request kept normalised
 * with its answer, the cassette written when the trial ends), `replay` (answered from the
 * cassette by normalised request; a request none matches fails the trial with a diff against the
 * nearest recording) and `live` (proxied, nothing kept). What went wrong is told to the agent in
 * its provider's error shape and settles the trial's outcome.
 */
import type { CaseModelsDocument } from "../../../schema/evals/models.js";
import { redact, redactText, secretNames } from "../../serve/journal/index.js";
import { type ModelCall, type ModelResponder, modelError, scriptedAnswer } from "../../serve/models/index.js";
import type { AgentOutcome } from "../hosts/index.js";
import { CASSETTE_VERSION, type Interaction, type RecordedResponse, readCassette, writeCassette } from "./cassette-file.js";
import { type IgnoredPart, type NormalisedRequest, normaliseBody, normaliseRequest } from "./normalised-request.js";
import { distance, requestDiff } from "./request-diff.js";
import { sendUpstream, type UpstreamAnswer, UpstreamError } from "./upstream.js";

/** How a run treats its cases' model traffic: `eval --record-models`, `--replay-models`, or neither. */
export type ModelsMode = "record" | "replay";

/** How one trial's traffic is answered. */
export type TrafficMode = "script" | "record" | "replay" | "live";

export interface TrafficInput {
  caseId: string;
  iteration: number;
  models: CaseModelsDocument;
  /** The trial's cassette file (none when the evals were handed in without their path). */
  cassette?: string;
  /** The run's flag. */
  mode?: ModelsMode;
  /** Where the real provider's base URL and key are read. */
  env: NodeJS.ProcessEnv;
  /** The trial's clock (ISO 8601): scripted answers' `created`. */
  clock: string;
  /** How requests reach the real provider (`fetch`; a test's own). */
  fetch?: typeof fetch;
}

export interface ModelTraffic {
  mode: TrafficMode;
  responder: ModelResponder;
  /** The trial's outcome once its agent is done: a mismatch fails it, a lost recording makes it not run; a recording is written. */
  settle(outcome: AgentOutcome): AgentOutcome;
}

const names = secretNames();

/** An SSE body redacted line by line (each `data:` JSON in place), a JSON body as JSON. */
function recorded(answer: UpstreamAnswer): RecordedResponse {
  const head = { status: answer.status, contentType: answer.contentType };
  if (/json/i.test(answer.contentType)) {
    try {
      return { ...head, json: redact(JSON.parse(answer.text), names) };
    } catch {
      // Not JSON after all: kept as text.
    }
  }
  const text = answer.text.replace(/^data: (.*)$/gm, (_line, data: string) => `data: ${redactText(data, names)}`);
  return { ...head, text };
}

const answerOf = (response: RecordedResponse) =>
  new Response(response.json !== undefined ? JSON.stringify(response.json) : (response.text ?? ""), {
    status: response.status,
    headers: { "content-type": response.contentType },
  });

/** Which mode a trial's traffic is answered in. */
function modeOf(input: TrafficInput, exists: boolean): TrafficMode {
  if (input.models.script) return "script";
  if (input.mode === "record") return "record";
  if (input.mode === "replay" || exists) return "replay";
  return "live";
}

/**
 * Opens a trial's model traffic.
 *
 * @example const traffic = openModelTraffic({ caseId: "t", iteration: 0, models: { script: [{ text: "Done." }] }, env, clock });
 */
export function openModelTraffic(input: TrafficInput): ModelTraffic {
  const ignore: readonly IgnoredPart[] = input.models.match?.ignore ?? ["ids"];
  const timeoutMs = input.models.upstreamTimeoutMs ?? 300_000;
  let cassette: ReturnType<typeof readCassette>;
  let notRun: string | undefined;
  let failed: string | undefined;
  try {
    cassette = input.cassette && !input.models.script && input.mode !== "record" ? readCassette(input.cassette) : undefined;
  } catch (error) {
    notRun = (error as Error).message.replace(/^\[eval-simulate\] /, "");
  }
  const mode = modeOf(input, cassette !== undefined);
  if ((mode === "record" || mode === "replay") && !input.cassette) notRun ??= "cassettes are kept beside the evals file: give runEvals the evals file's path";
  if (mode === "replay" && !cassette && input.cassette) notRun ??= `no cassette for this trial (${input.cassette}): record it with eval --record-models`;
  const kept: Array<Interaction | undefined> = [];
  const used = new Set<number>();
  let n = 0;
  const created = Math.floor(Date.parse(input.clock) / 1000);

  const proxy = async (call: ModelCall, keep: boolean): Promise<Response> => {
    const slot = keep ? kept.push(undefined) - 1 : -1;
    let answer: UpstreamAnswer;
    try {
      answer = await sendUpstream(call, input.env, timeoutMs, input.fetch);
    } catch (error) {
      const message = error instanceof UpstreamError ? error.message : (error as Error).message;
      notRun ??= `the model request could not be recorded: ${message}`;
      return modelError(call.provider, 502, "api_error", `[eval-simulate] ${message}`);
    }
    if (answer.status < 200 || answer.status >= 300) {
      notRun ??= `${call.provider} answered ${answer.status}: ${answer.text.slice(0, 300)}`;
      return new Response(answer.text, { status: answer.status, headers: { "content-type": answer.contentType } });
    }
    const response = recorded(answer);
    // Kept in the order the requests came, however their answers interleave.
    if (keep) kept[slot] = { request: normaliseRequest(call, ignore), response };
    return answerOf(response);
  };

  // The recordings normalised once for the trial, not again for each request (a long trial's cassette holds thousands).
  let stored: NormalisedRequest[] | undefined;
  let keys: string[] | undefined;
  const replay = async (call: ModelCall, number: number): Promise<Response> => {
    const interactions = cassette?.interactions ?? [];
    const sent = normaliseRequest(call, ignore);
    const key = JSON.stringify(sent);
    stored ??= interactions.map((i) => ({ api: i.request.api, body: normaliseBody(i.request.body, ignore) }));
    keys ??= stored.map((request) => JSON.stringify(request));
    const index = keys.findIndex((recorded, i) => !used.has(i) && recorded === key);
    if (index >= 0) {
      used.add(index);
      return answerOf(interactions[index]!.response);
    }
    let nearest = -1;
    let nearestDistance = Number.POSITIVE_INFINITY;
    for (const [i, request] of stored.entries()) {
      const d = distance(request, sent);
      if (d < nearestDistance) [nearest, nearestDistance] = [i, d];
    }
    const message =
      nearest < 0
        ? `model request ${number} matches no recording: ${input.cassette} holds none`
        : `model request ${number} matches no recording in ${input.cassette}; against the nearest (request ${nearest + 1}), - recorded + sent:\n${requestDiff(stored[nearest]!, sent)}`;
    failed ??= message;
    return modelError(call.provider, 400, "invalid_request_error", `[eval-simulate] ${message}`);
  };

  const responder: ModelResponder = async (call) => {
    const number = ++n;
    if (notRun) return modelError(call.provider, 503, "api_error", `[eval-simulate] ${notRun}`);
    switch (mode) {
      case "script": {
        const answer = input.models.script![number - 1];
        if (answer) {
          const includeUsage = (call.body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
          return scriptedAnswer(call.api, answer, { n: number, model: String(call.body.model ?? "scripted"), created, stream: call.stream, includeUsage });
        }
        failed ??= `the case's models.script has ${input.models.script!.length} answers, and the agent made model request ${number}`;
        return modelError(call.provider, 400, "invalid_request_error", `[eval-simulate] ${failed}`);
      }
      case "replay":
        return replay(call, number);
      default:
        return proxy(call, mode === "record");
    }
  };

  return {
    mode,
    responder,
    settle(outcome) {
      const served = { ...outcome, requests: outcome.requests + n };
      if (failed) return { ...served, outcome: { status: "fail", reason: failed } };
      if (notRun) return { ...served, outcome: { status: "not_run", reason: notRun } };
      if (mode === "record" && input.cassette && outcome.outcome?.status !== "not_run") {
        const interactions = kept.filter((i): i is Interaction => i !== undefined);
        try {
          writeCassette(input.cassette, { version: CASSETTE_VERSION, case: input.caseId, trial: input.iteration, interactions });
        } catch (error) {
          // A recording that cannot be kept (past the size a replay reads, a folder not writable) is not this trial's record.
          return { ...served, outcome: { status: "not_run", reason: (error as Error).message.replace(/^\[eval-simulate\] /, "") } };
        }
      }
      return served;
    },
  };
}
