/**
 * A conversation's simulated user answering the fakes' elicitations: the question and the form it
 * asks for are put to the user simulator as the agent's words, and its reply is read as the
 * answer (a JSON object of the form's fields, the one field's value, or a refusal). A case's own
 * `client:` answers win over the user: they are what the author scripted.
 */
import type { AgentTrial } from "./agent-host.js";
import type { TranscriptMessage, UserSimulator } from "./agent-turn.js";
import { type ClientAnswerer, type ClientQuestion, scriptedAnswers } from "./client-answers.js";

type Elicited = Awaited<ReturnType<NonNullable<ClientAnswerer["elicit"]>>>;

/**
 * Who answers a trial's client questions: the case's `client:` when it has one, else in a
 * conversation with a model user, that user (elicitation only); else nobody.
 *
 * @example const answerer = trialAnswerer(trial);
 */
export function trialAnswerer(trial: AgentTrial): ClientAnswerer | undefined {
  if (trial.case.client) return scriptedAnswers(trial.case.client);
  // A scripted user's replies are the next turns' messages: spending one on a form would shift them.
  if (!trial.turn || !trial.user || trial.user.label === "script") return undefined;
  const { user, turn } = trial;
  return { elicit: (question, signal) => userElicits(user, [...turn.transcript], turn.number, question, signal) };
}

/** The user's answer to one elicitation, asked after the transcript so far. */
async function userElicits(
  user: UserSimulator,
  transcript: TranscriptMessage[],
  turn: number,
  question: ClientQuestion,
  signal: AbortSignal,
): Promise<Elicited> {
  const message = typeof question.params.message === "string" ? question.params.message : "Please answer.";
  const schema = question.params.requestedSchema as { properties?: Record<string, { type?: string }> } | undefined;
  const fields = Object.keys(schema?.properties ?? {});
  const asked = `${message}\n\n(Answer with a JSON object with the fields ${fields.map((f) => JSON.stringify(f)).join(", ") || "you are asked for"}, or say "decline".)\nRequested schema: ${JSON.stringify(schema ?? {})}`;
  const reply = await user.reply([...transcript, { turn, role: "assistant", content: asked }], signal);
  return parseElicited(reply.stop ? undefined : reply.content, schema);
}

/**
 * Reads a user's reply as an elicitation's answer: a JSON object (in a code fence or not) is
 * accepted as the form's content; plain text is the value of a one-field form; anything else, or
 * a refusal, declines.
 *
 * @example parseElicited('{"username":"ada"}', schema) // { action: "accept", content: { username: "ada" } }
 */
export function parseElicited(text: string | undefined, schema: { properties?: Record<string, { type?: string }> } | undefined): Elicited {
  const said = text?.trim() ?? "";
  if (said === "" || /^(decline|no|cancel)\b/i.test(said)) return { action: "decline" };
  const json = said.match(/\{[\s\S]*\}/)?.[0];
  if (json) {
    try {
      const value = JSON.parse(json) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value)) return { action: "accept", content: value as Record<string, unknown> };
    } catch {}
  }
  const fields = Object.entries(schema?.properties ?? {});
  if (fields.length !== 1) return { action: "decline" };
  const [name, field] = fields[0]!;
  const number = Number(said);
  const value =
    field.type === "number" || field.type === "integer"
      ? Number.isFinite(number)
        ? number
        : undefined
      : field.type === "boolean"
        ? /^(yes|true)\b/i.test(said)
        : said;
  return value === undefined ? { action: "decline" } : { action: "accept", content: { [name]: value } };
}
