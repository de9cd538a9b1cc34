import { Type } from "typebox";
import { describe, ID_PATTERN } from "../describe.js";
import { Expression } from "../json-schema.js";
import { CallMatcher, Count, ScriptCall, ToolName } from "./calls.js";
import { CaseModels } from "./models.js";
import { ConversationExpectations, Turns, User } from "./conversation.js";
import { Milestones, Minefield, Rubric, Weights } from "./grading.js";
import { StateExpectation, Weight } from "./state.js";

/** One reference call: a call, and what the reference saw it answer when it recorded that. */
const GoldenCall = Type.Object(
  {
    tool: ToolName("The tool to call:"),
    arguments: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), describe("The call's arguments; for an API operation the request: `{ params, query, headers, body }`.")),
    ),
    error: Type.Optional(
      Type.Union([Type.Boolean(), Type.String()], {
        ...describe(
          "The reference's call answered an error (a failed attempt it makes on purpose): the replay must answer an error too (one whose text contains this, when a string) and goes on. `false`: it must succeed. Without `error` or `result`, a call that answers an error is taken as the reference's failed attempt.",
          { examples: [true, "No task has the ID"] },
        ),
      }),
    ),
    result: Type.Optional(
      Type.Unknown(
        describe(
          "The result the reference recorded for this call (kept, not compared): the call succeeded there, so an error on replay leaves the case not evaluated.",
        ),
      ),
    ),
  },
  { additionalProperties: false, ...describe("One reference call.", { examples: [{ tool: "tickets/close-ticket", arguments: { id: "T-101" } }] }) },
);

const Golden = Type.Object(
  {
    calls: Type.Array(GoldenCall, {
      ...describe("The reference calls, replayed in order on a fresh world of the case's scenario and clock; none (`[]`): the world must end as it started."),
    }),
    entities: Type.Optional(
      Type.Array(
        Type.String({ pattern: `^[a-z0-9][a-z0-9-]*(\\.[A-Za-z_][A-Za-z0-9_]*)?$` }),
        describe("Compare only these fakes (`<fake>`) or entities (`<fake>.<entity>`); every fake by default.", { examples: [["tickets.tickets"]] }),
      ),
    ),
    weight: Weight(),
  },
  {
    additionalProperties: false,
    ...describe(
      "A reference solution: the run's final world must equal the world its calls make (compared by world hash). A golden call that answers an error is the reference's failed attempt, replayed and passed over; one the reference recorded as succeeding (`result`, `error: false`) that fails makes the case not evaluated, never a pass.",
    ),
  },
);

const AnswerExpectation = Type.Object(
  {
    contains: Type.Optional(Type.String(describe("Text the agent's final message must contain (case-sensitive)."))),
    pattern: Type.Optional(Type.String(describe("A regular expression the final message must match."))),
    flags: Type.Optional(Type.String({ pattern: "^[dgimsuyv]*$", ...describe("Flags of `pattern`.", { examples: ["i"] }) })),
    jsonata: Type.Optional(Expression("Must be true; `$answer` is the final message, `$final` the final world.", ["$contains($answer, 'T-101')"])),
    weight: Weight(),
  },
  { additionalProperties: false, ...describe("Expectations on the agent's final message (from the run's transcript); not evaluated when the run has none.") },
);

/** What a case expects of a run. */
export const Expectations = Type.Object(
  {
    calls: Type.Optional(Type.Array(CallMatcher, describe("The tool calls the agent must (or may) make."))),
    order: Type.Optional(
      Type.Union(
        [Type.Literal("any"), Type.Literal("strict")],
        describe("`strict`: the required `calls` must happen in the listed order.", { default: "any" }),
      ),
    ),
    exclusive: Type.Optional(Type.Boolean(describe("No tool outside `calls` may be called.", { default: false }))),
    callCount: Type.Optional(Count("How many tool calls the run may make in all.")),
    forbidden: Type.Optional(
      Type.Array(ToolName("A tool the agent must not call:"), {
        uniqueItems: true,
        ...describe("Tools the run must make no call to (refused calls included): the shorthand of a `calls` entry with `count: { max: 0 }` for each.", {
          examples: [["crm/delete-record"]],
        }),
      }),
    ),
    state: Type.Optional(StateExpectation),
    milestones: Type.Optional(Milestones),
    never: Type.Optional(
      Type.Array(Minefield, describe("Predicates that must be false in the initial world and after every commit: a change undone later is still caught.")),
    ),
    golden: Type.Optional(Type.Union([Golden, Type.Array(GoldenCall)], describe("A reference solution (`{ calls, entities }`, or the calls alone)."))),
    answer: Type.Optional(AnswerExpectation),
    rubrics: Type.Optional(Type.Array(Rubric, describe("Criteria a judge model grades the final answer by (model-graded assertions)."))),
    weights: Type.Optional(Weights),
    ...ConversationExpectations,
  },
  {
    additionalProperties: false,
    ...describe("What a run of this case must show: calls, state, milestones, minefields, a golden world, the final answer, rubrics a model judges."),
  },
);

const Host = Type.Union(
  [
    Type.Object(
      {
        type: Type.Literal("model", describe("A model in-process, through the Vercel AI SDK.")),
        model: Type.String(describe("`provider:model`.", { examples: ["anthropic:claude-sonnet-4-5", "openai-compatible:qwen3"] })),
        baseURL: Type.Optional(Type.String(describe("The base URL of an OpenAI-compatible endpoint (Ollama, vLLM, LM Studio)."))),
        temperature: Type.Optional(Type.Number({ minimum: 0, ...describe("Sampling temperature.", { default: 0 }) })),
        maxTokens: Type.Optional(Type.Integer({ minimum: 1, ...describe("The most tokens a reply may take.") })),
        timeoutMs: Type.Optional(
          Type.Integer({ minimum: 1, ...describe("Stop the trial after this long; it is not run (PRELIMINARY), never scored.", { default: 600000 }) }),
        ),
        requestTimeoutMs: Type.Optional(
          Type.Integer({
            minimum: 1,
            ...describe("One model request, from sending it to the last byte of its answer; past it the request fails as a transient error and is retried.", {
              default: 300000,
            }),
          }),
        ),
        idleTimeoutMs: Type.Optional(
          Type.Integer({
            minimum: 1,
            ...describe("The longest silence inside an answer's body once its headers are in; past it the request fails as a transient error and is retried.", {
              default: 60000,
            }),
          }),
        ),
      },
      { additionalProperties: false, ...describe("Run the agent as a model with the fakes' tools.") },
    ),
    Type.Object(
      {
        type: Type.Literal("command", describe("Any agent CLI.")),
        command: Type.Array(Type.String(), {
          minItems: 1,
          ...describe(
            "The command and its arguments; `{{prompt}}`, `{{system}}`, `{{mcpConfig}}`, `{{session}}`, `{{case}}` and `{{iteration}}` are filled in, each as it stands; `{{prompt:sh}}` (any of them with `:sh`) quotes the value as one POSIX shell word, for a `sh -c` command line. In a conversation the command runs once per turn, `{{prompt}}` being the turn's user message: `{{turn}}` is its number, an argument `{{resume}}` stands for the `resume` arguments from the second turn on, and `{{transcript}}` (text) and `{{transcriptFile}}` (a JSON file) give the conversation so far to a CLI that starts afresh each turn.",
            { examples: [["claude", "-p", "{{prompt}}", "--mcp-config", "{{mcpConfig}}"]] },
          ),
        }),
        timeoutMs: Type.Optional(
          Type.Integer({
            minimum: 1,
            ...describe("Stop the command (its whole process group: SIGTERM, then SIGKILL 2 s later) after this long; its trial fails.", { default: 600000 }),
          }),
        ),
        resume: Type.Optional(
          Type.Array(Type.String(), {
            ...describe(
              "In a conversation, the arguments `{{resume}}` stands for from the second turn on (none on the first): a CLI's way to continue its session.",
              {
                examples: [["--continue"], ["--resume", "{{session}}"]],
              },
            ),
          }),
        ),
        outputFormat: Type.Optional(
          Type.Union(
            [Type.Literal("text"), Type.Literal("all"), Type.Literal("json"), Type.Literal("stream-json")],
            describe(
              "How to read the final message from stdout: `text` its last non-empty line, `all` all of it, `json` one JSON document (`result`, `answer`, or the last assistant message), `stream-json` JSON lines (the last one holding an answer).",
              { default: "text" },
            ),
          ),
        ),
      },
      { additionalProperties: false, ...describe("Run an agent CLI given the fakes as an MCP config.") },
    ),
    Type.Object(
      { type: Type.Literal("script", describe("No model: the case's `script` drives the calls.")) },
      { additionalProperties: false, ...describe("Play the case's script (free, offline: proves the case passes its own expectations).") },
    ),
  ],
  describe("How the eval runner runs the agent for this case (`eval-simulate verify` ignores it)."),
);

const Script = Type.Object(
  {
    calls: Type.Array(ScriptCall, describe("The tool calls, in order.")),
    answer: Type.Optional(Type.String(describe("The final message."))),
  },
  { additionalProperties: false, ...describe("A scripted agent: its calls and final message (the `script` host, and `--dry`).") },
);

/** What the agent's MCP client answers when a fake asks it (elicitation, sampling): scripted, in turn. */
const ClientAnswers = Type.Object(
  {
    elicitation: Type.Optional(
      Type.Array(
        Type.Object(
          {
            action: Type.Enum(["accept", "decline", "cancel"], describe("What the user did.")),
            content: Type.Optional(Type.Record(Type.String(), Type.Unknown(), describe("The form's values, when accepted."))),
          },
          { additionalProperties: false, ...describe("One answer to `elicitation/create`.") },
        ),
        describe("The answers to the fakes' `elicitation/create`, in turn; past the last, the client declines.", {
          examples: [[{ action: "accept", content: { confirm: true } }]],
        }),
      ),
    ),
    sampling: Type.Optional(
      Type.Array(
        Type.String(),
        describe("The model's replies to the fakes' `sampling/createMessage`, in turn (text); past the last, the request is refused.", {
          examples: [["The notes cover a kickoff and a budget."]],
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    ...describe(
      "What the agent's MCP client answers when a fake asks it during a trial (`ctx.elicit`, `ctx.sample`): the script host and `--dry` answer from here; the fake's record keeps each exchange.",
    ),
  },
);

/** One case of an evals file. */
export const Case = Type.Object(
  {
    id: Type.String({
      pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$",
      ...describe("The case's id, unique in the file; `verify --case` names it.", { examples: ["close-duplicate"] }),
    }),
    description: Type.Optional(Type.String(describe("What the case tests."))),
    scenario: Type.Optional(
      Type.String({ pattern: ID_PATTERN, ...describe("The scenario the run starts from (the manifest's default when left out).", { examples: ["quiet"] }) }),
    ),
    fakes: Type.Optional(
      Type.Array(Type.String({ pattern: ID_PATTERN }), {
        minItems: 1,
        uniqueItems: true,
        ...describe(
          "Only these fakes (server and api ids) are served to this case's trials: the agent's MCP config and tools list name only them, and any other fake's URL answers 404 (a request outside its session). Every `required: true` fake must be among them. Every fake by default.",
          { examples: [["crm", "mail"]] },
        ),
      }),
    ),
    clock: Type.Optional(
      Type.String(
        describe("The clock the run is served at, ISO 8601; with it, verify checks the run started from this scenario's world.", {
          examples: ["2026-10-01T09:00:00Z"],
        }),
      ),
    ),
    prompt: Type.Optional(
      Type.String(describe("What the agent is asked (the eval runner sends it; verify ignores it); with `user`, the conversation's first message.")),
    ),
    system: Type.Optional(Type.String(describe("The system prompt (the eval runner)."))),
    tags: Type.Optional(Type.Array(Type.String(), describe("Labels to select cases by (`--filter-tags`)."))),
    iterations: Type.Optional(Type.Integer({ minimum: 1, ...describe("How many trials the eval runner makes; set with `accuracyThreshold`.") })),
    accuracyThreshold: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, ...describe("The share of trials that must pass; set with `iterations`.", { examples: [0.8] }) }),
    ),
    minScore: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        ...describe(
          "A trial passes when its score (the weighted share of assertions passed) is at least this, instead of when every assertion passes; a broken minefield still zeroes it.",
          { examples: [0.8] },
        ),
      }),
    ),
    maxSteps: Type.Optional(Type.Integer({ minimum: 1, ...describe("The most agent steps a trial may take.", { default: 10 }) })),
    host: Type.Optional(Host),
    script: Type.Optional(Script),
    models: Type.Optional(CaseModels),
    user: Type.Optional(User),
    turns: Type.Optional(Turns),
    client: Type.Optional(ClientAnswers),
    expect: Expectations,
  },
  { additionalProperties: false, ...describe("One task: where it starts, what the agent is asked, and what its run must show.") },
);
