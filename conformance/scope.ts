/**
 * Which of the MCP conformance suite's server scenarios a tools-only fake answers, and why the
 * others are out of scope. `run.ts` fails when an in-scope scenario fails, or when the suite has
 * a scenario listed in neither place (a new suite version: decide, then list it here and in
 * docs/conformance.md).
 */

/** The suite version these lists were made for. */
export const SUITE_VERSION = "0.1.16";

/** Scenarios the conformance example must pass. */
export const IN_SCOPE: readonly string[] = [
  "server-initialize",
  "ping",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-error",
  "json-schema-2020-12",
  "dns-rebinding-protection",
];

const MID_CALL = "a fake answers each call from its state and sends the client nothing while a call runs";
const ASKS_CLIENT = "the server asking the client (sampling/createMessage, elicitation/create) mid-call: a fake never asks the client or the user anything";
const SESSIONS =
  "sessions and resumable SSE streams: the fakes serve 2025-era traffic statelessly (no Mcp-Session-Id), so the scenario stops at a warning and checks nothing";

/** Scenarios a tools-only fake does not take part in, with the reason. */
export const OUT_OF_SCOPE: Readonly<Record<string, string>> = {
  "logging-set-level": "the logging capability: a fake declares tools only, so logging/setLevel is -32601 Method not found",
  "completion-complete": "completions complete prompt and resource-template arguments; a tools-only fake has neither",
  "tools-call-with-logging": `log notifications during a call: ${MID_CALL}`,
  "tools-call-with-progress": `progress notifications during a call: ${MID_CALL}`,
  "tools-call-sampling": ASKS_CLIENT,
  "tools-call-elicitation": ASKS_CLIENT,
  "elicitation-sep1034-defaults": ASKS_CLIENT,
  "elicitation-sep1330-enums": ASKS_CLIENT,
  "server-sse-polling": SESSIONS,
  "server-sse-multiple-streams": SESSIONS,
  "resources-list": "resources: a fake serves tools only",
  "resources-read-text": "resources: a fake serves tools only",
  "resources-read-binary": "resources: a fake serves tools only",
  "resources-templates-read": "resources: a fake serves tools only",
  "resources-subscribe": "resources: a fake serves tools only",
  "resources-unsubscribe": "resources: a fake serves tools only",
  "prompts-list": "prompts: a fake serves tools only",
  "prompts-get-simple": "prompts: a fake serves tools only",
  "prompts-get-with-args": "prompts: a fake serves tools only",
  "prompts-get-embedded-resource": "prompts: a fake serves tools only",
  "prompts-get-with-image": "prompts: a fake serves tools only",
};
