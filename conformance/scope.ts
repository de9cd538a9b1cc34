/**
 * Which of the MCP conformance suite's server scenarios the conformance example must pass, and
 * why the others are out of scope. `run.ts` fails when an in-scope scenario fails, or when the
 * suite has a scenario listed in neither place (a new suite version: decide, then list it here
 * and in docs/conformance.md).
 */

/** The suite version these lists were made for. */
export const SUITE_VERSION = "0.1.16";

/** Scenarios the conformance example must pass. */
export const IN_SCOPE: readonly string[] = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "completion-complete",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-sampling",
  "tools-call-elicitation",
  "elicitation-sep1034-defaults",
  "elicitation-sep1330-enums",
  "server-sse-multiple-streams",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "json-schema-2020-12",
  "dns-rebinding-protection",
];

/** Scenarios the example does not take part in, with the reason. */
export const OUT_OF_SCOPE: Readonly<Record<string, string>> = {
  "server-sse-polling":
    "resumable SSE streams (SEP-1699): the server closes a call's stream and the client resumes it with Last-Event-ID; resumability is optional in the protocol (a server MAY give events ids) and a fake keeps no event store, so the scenario stops at a warning and checks nothing",
};
