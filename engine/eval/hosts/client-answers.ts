/**
 * Who answers when a fake asks the agent's MCP client something during a trial: the user's
 * input (`elicitation/create`) and the client's model (`sampling/createMessage`). A host hands an
 * answerer to the clients it connects; the script host's answers the case's `client:` in turn.
 * A conversation's model user (`user-answers.ts`) and the model host's own model (sampling)
 * answer through the same interface.
 */
import type { Client } from "@modelcontextprotocol/client";
import type { EvalCase } from "../../../schema/evals/evals.js";

/** What a fake asked, and of which server's client. */
export interface ClientQuestion {
  server: string;
  params: Record<string, unknown>;
}

/** Answers the questions the fakes ask during one trial; a method left out is refused. */
export interface ClientAnswerer {
  /** The user's answer to an elicitation: `{ action, content? }`. */
  elicit?(question: ClientQuestion, signal: AbortSignal): Promise<{ action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> }>;
  /** The model's reply to a sampling request: the reply's text. */
  sample?(question: ClientQuestion, signal: AbortSignal): Promise<string>;
}

/**
 * The case's scripted answers, each used once in turn: past the last elicitation the client
 * declines; past the last sampling reply the request is refused.
 *
 * @example const answerer = scriptedAnswers(trial.case.client);
 */
export function scriptedAnswers(answers: EvalCase["client"]): ClientAnswerer {
  const elicitation = [...(answers?.elicitation ?? [])];
  const sampling = [...(answers?.sampling ?? [])];
  return {
    elicit: async () => {
      const next = elicitation.shift();
      return next ? { action: next.action, ...(next.content && { content: next.content }) } : { action: "decline" };
    },
    sample: async () => {
      const next = sampling.shift();
      if (next === undefined) throw new Error("[eval-simulate] the case's client has no sampling reply left (client.sampling)");
      return next;
    },
  };
}

/** The capabilities a client declares for an answerer: only what it can answer. */
export function answererCapabilities(answerer: ClientAnswerer | undefined): Record<string, unknown> {
  return { ...(answerer?.elicit && { elicitation: { form: {} } }), ...(answerer?.sample && { sampling: {} }) };
}

/**
 * Registers the answerer's handlers on a client connected to `server` (its capabilities
 * declared at construction: `answererCapabilities`).
 *
 * @example const client = new Client(info, { capabilities: answererCapabilities(a) }); answerWith(client, "notes", a, signal);
 */
export function answerWith(client: Client, server: string, answerer: ClientAnswerer | undefined, signal: AbortSignal): void {
  const elicit = answerer?.elicit;
  const sample = answerer?.sample;
  if (elicit)
    client.setRequestHandler("elicitation/create", (request) => elicit({ server, params: request.params as Record<string, unknown> }, signal) as never);
  if (sample) {
    client.setRequestHandler("sampling/createMessage", async (request) => ({
      model: "eval-simulate-scripted",
      role: "assistant" as const,
      content: { type: "text" as const, text: await sample({ server, params: request.params as Record<string, unknown> }, signal) },
    }));
  }
}
