import { Type } from "typebox";
import { EntityValue } from "./data-file.js";
import { describe, ID_PATTERN, NAME_PATTERN } from "./describe.js";
import { JsonataHandler } from "./handlers.js";
import { JsonSchema } from "./json-schema.js";

export const EntityNames = (text: string) =>
  Type.Array(Type.String({ pattern: NAME_PATTERN }), { uniqueItems: true, ...describe(text, { examples: [["notes"]] }) });

/** One named part of a fake's state. */
export const Entity = Type.Object(
  {
    description: Type.Optional(Type.String(describe("What this entity holds."))),
    schema: JsonSchema("The entity's JSON Schema: every scenario's value for it must validate."),
    default: Type.Optional(
      EntityValue("The entity's value when a scenario does not set it; `{ $file: data/notes.json }` reads it from a data file.", { examples: [[]] }),
    ),
  },
  { additionalProperties: false, ...describe("A named part of the fake's state, with its JSON Schema.") },
);

export const Entities = Type.Record(Type.String({ pattern: NAME_PATTERN }), Entity, {
  additionalProperties: false,
  ...describe("The fake's state, by entity name. Handlers read them as `$state.<name>`.", {
    examples: [{ notes: { schema: { type: "array" }, default: [] } }],
  }),
});

/** How a tool's successful answer is written. */
export const Answer = Type.Object(
  {
    format: Type.Optional(
      Type.Enum(["json", "toon", "prefixed_json", "text", "content"], {
        ...describe(
          "The answer's format: `json`; `toon` (Token-Oriented Object Notation, an empty array written `key[0]:`); `prefixed_json` (a fixed `prefix`, the JSON, an optional `suffix`); `text` (no schema); `content` (the handler answers MCP content blocks: text, image, audio, resource_link, resource). Required unless the capture states an `outputSchema`.",
          { examples: ["json"] },
        ),
      }),
    ),
    text: Type.Optional(
      Type.String({
        minLength: 1,
        ...describe(
          "Only for a tool whose capture states an `outputSchema`: the text sent beside the structured content. `json` (compact, the default), `json-pretty` (indented by 2, as `JSON.stringify(value, null, 2)`), or a JSONata expression whose context (`$`) is the structured content (`$string(entities, true)`).",
          { examples: ["json-pretty", "$string(entities, true)"] },
        ),
      }),
    ),
    schema: Type.Optional(JsonSchema("The decoded answer's schema. Not for `text`.")),
    prefix: Type.Optional(Type.String(describe("`prefixed_json` only: the text before the JSON.", { examples: ["Email sent successfully! "] }))),
    suffix: Type.Optional(Type.String(describe("`prefixed_json` only: the text after the JSON."))),
  },
  {
    additionalProperties: false,
    ...describe(
      "The tool's successful answer: its format and the schema of its decoded value. A tool whose capture states an `outputSchema` answers with structured content: its `answer` may only say how the text beside it is written (`text`).",
      { examples: [{ format: "json", schema: { type: "object" } }] },
    ),
  },
);

/** One served tool: its entity map and its handler. */
export const Tool = Type.Object(
  {
    description: Type.Optional(Type.String(describe("A note for the Recipe's readers; the served description is the captured one."))),
    kind: Type.Optional(
      Type.Enum(["stateful", "static"], {
        ...describe("`stateful` (the default) reads or writes entities; `static` writes nothing and reads nothing a tool writes or a scenario fills.", {
          default: "stateful",
        }),
      }),
    ),
    reads: Type.Optional(EntityNames("The entities the tool reads.")),
    writes: Type.Optional(EntityNames("The entities the tool writes. A captured `readOnlyHint: true` forbids any.")),
    answer: Type.Optional(Answer),
    jsonata: Type.Optional(JsonataHandler),
    listed: Type.Optional(
      Type.Object(
        {
          afterCalls: Type.Optional(
            Type.Integer({ minimum: 0, maximum: 1000000, ...describe("Listed (and served) once the world has answered this many calls.") }),
          ),
          untilCalls: Type.Optional(
            Type.Integer({ minimum: 0, maximum: 1000000, ...describe("Listed (and served) until the world has answered this many calls, then removed.") }),
          ),
        },
        {
          additionalProperties: false,
          ...describe(
            "A changing tool list: when the tool is listed, counted in calls the world answered. Each change is sent as `notifications/tools/list_changed` to MCP sessions; a call to a tool not listed now is refused as a tool the fake does not serve, and journaled so.",
            { examples: [{ afterCalls: 3 }] },
          ),
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    ...describe("A served tool: its entity map, its answer and its handler (`jsonata`, or the handlers module's entry of the same name)."),
  },
);

/** Completions for one argument: the values offered, or a JSONata expression over the world that gives them. */
export const Completion = Type.Union(
  [
    Type.Array(Type.String(), describe("The values offered; those starting with what the client typed are sent (case-insensitive).")),
    Type.Object(
      {
        jsonata: Type.String(
          describe(
            "An expression giving the values (an array of strings). Bindings: `$args.value` (what the client typed), `$args.arguments` (the arguments already given), `$state`, `$world`.",
          ),
        ),
      },
      { additionalProperties: false },
    ),
  ],
  describe("How `completion/complete` completes this argument: a list, or a JSONata expression over the world.", {
    examples: [["paris", "park"], { jsonata: "$state.notes.title" }],
  }),
);

const Completions = Type.Record(Type.String({ minLength: 1 }), Completion, {
  ...describe("`completion/complete` for arguments, by argument (or template variable) name."),
});

/** One served resource (or resource template): what it reads and how it is answered. */
export const Resource = Type.Object(
  {
    description: Type.Optional(Type.String(describe("A note for the Recipe's readers; the served description is the captured one."))),
    reads: Type.Optional(EntityNames("The entities reading the resource reads.")),
    jsonata: Type.Optional(JsonataHandler),
    complete: Type.Optional(Completions),
  },
  {
    additionalProperties: false,
    ...describe(
      "A captured resource (by its `uri`) or resource template (by its `uriTemplate`) this fake answers `resources/read` for: `jsonata` (`$args` holds `uri` and each template variable), or the handlers module's entry named by the same URI. A string answer is the resource's text; `{ contents: [...] }` is sent as it is; any other value is written as JSON.",
    ),
  },
);

/** One message of a prompt template. */
const PromptMessage = Type.Object(
  {
    role: Type.Enum(["user", "assistant"], describe("Who speaks the message.")),
    content: Type.Unsafe<Record<string, unknown>>({
      type: "object",
      required: ["type"],
      ...describe(
        "An MCP content block: `{ type: text, text }`, `{ type: image, data, mimeType }`, `{ type: audio, ... }`, `{ type: resource, resource: { uri, text | blob } }`.",
      ),
    }),
  },
  { additionalProperties: false, ...describe("A prompt message: a role and one content block.") },
);

/** One served prompt: its messages, by template or handler. */
export const Prompt = Type.Object(
  {
    description: Type.Optional(Type.String(describe("A note for the Recipe's readers; the served description is the captured one."))),
    reads: Type.Optional(EntityNames("The entities the prompt reads.")),
    messages: Type.Optional(
      Type.Array(PromptMessage, {
        ...describe(
          "The prompt's messages as a template: every `{{name}}` in a string is replaced by that argument's value. Content is any MCP content block (text, image, audio, resource).",
          { examples: [[{ role: "user", content: { type: "text", text: "Summarise {{topic}}" } }]] },
        ),
      }),
    ),
    jsonata: Type.Optional(JsonataHandler),
    complete: Type.Optional(Completions),
  },
  {
    additionalProperties: false,
    ...describe(
      "A captured prompt this fake answers `prompts/get` for: `messages` (a template), `jsonata` (`$args` holds the arguments; the value is the messages, or `{ description, messages }`), or the handlers module's entry named by the prompt.",
    ),
  },
);

/** Where the capture came from, so `eval-simulate capture <id>` can read the real server again. */
const McpCapture = Type.Object(
  {
    command: Type.Optional(
      Type.String(describe("The real server's command line, run over stdio.", { examples: ["npx -y @modelcontextprotocol/server-memory"] })),
    ),
    url: Type.Optional(Type.String(describe("The real server's Streamable HTTP URL."))),
  },
  { additionalProperties: false, ...describe("How `eval-simulate capture` reached the real server (headers are never recorded: they may hold secrets).") },
);

/** A tool as the real server listed it; kept open, since servers add their own fields. */
const CapturedTool = Type.Object(
  { name: Type.String(describe("The tool's name, as the server lists it.")) },
  describe("A tool as the real server's tools/list gave it: name, title, description, inputSchema, annotations, ..."),
);

/** A fake the Recipe cannot run without: a subset of the fakes that leaves it out refuses to start. */
export const Required = Type.Boolean(
  describe(
    "The Recipe cannot run without this fake: serving a subset of the fakes (`serve --fakes`, `EVAL_SIMULATE_FAKES`, the `fakes` option, an eval case's `fakes`) that leaves it out refuses to start, naming it.",
    { default: false },
  ),
);

/** An MCP fake. */
export const Server = Type.Object(
  {
    description: Type.Optional(Type.String(describe("What the real server is."))),
    required: Type.Optional(Required),
    captured: Type.Union(
      [
        Type.String({ minLength: 1 }),
        Type.Array(CapturedTool),
        Type.Object({ tools: Type.Array(CapturedTool, describe("The captured tools, in the order the server lists them.")) }),
      ],
      describe(
        "The real server's captured `tools/list`: a path to a JSON or YAML file holding the result (`{ tools: [...] }`) or the bare array, or the result inline.",
        { examples: ["mcp/notes/tools.json"] },
      ),
    ),
    observed: Type.Optional(
      Type.String(describe("What the real server answered, for the checks: a path to `observed.json`.", { examples: ["mcp/notes/observed.json"] })),
    ),
    handlers: Type.Optional(
      Type.String(
        describe("A TypeScript or JavaScript module whose default export (`defineHandlers({...})`) maps tool names to handlers.", {
          examples: ["mcp/notes/handlers.ts"],
        }),
      ),
    ),
    timeoutMs: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2147483647,
        ...describe("A handler's time limit in milliseconds; past it the call is a tool error and changes nothing.", { default: 30000 }),
      }),
    ),
    capture: Type.Optional(McpCapture),
    unknownTool: Type.Optional(
      Type.Enum(["protocol-error", "error-result"], {
        ...describe(
          "How a call to a tool this fake does not serve is answered: `protocol-error` (JSON-RPC -32602 `Tool <name> not found`, as SDK v2 servers do) or `error-result` (a tool error result with the text `MCP error -32602: Tool <name> not found`, as SDK v1 servers do).",
          { default: "protocol-error" },
        ),
      }),
    ),
    errors: Type.Optional(
      Type.Object(
        {
          invalidArguments: Type.Optional(
            Type.String({
              minLength: 1,
              ...describe(
                "The text of the tool error a call whose arguments fail the input schema gets; `{{tool}}`, `{{message}}` (every problem, ajv's words), `{{path}}` (the first problem's place, `entities.0.name`) and `{{issue}}` (its message) are filled in.",
                { default: "Input validation error: Invalid arguments for tool {{tool}}: {{message}}", examples: ["Error: {{path}}: {{issue}}"] },
              ),
            }),
          ),
          unknownTool: Type.Optional(
            Type.String({
              minLength: 1,
              ...describe(
                "A call to a tool this fake does not serve gets a tool error result with this text (`{{tool}}` filled in), whatever `unknownTool` says.",
                { examples: ["Error: Unknown tool: {{tool}}"] },
              ),
            }),
          ),
        },
        {
          additionalProperties: false,
          ...describe(
            "The texts of the errors the engine answers for this fake, worded as the real server words them (its own validation message, its unknown-tool reply).",
          ),
        },
      ),
    ),
    resources: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), Resource, {
        ...describe("The captured resources and resource templates this fake serves, by `uri` or `uriTemplate`, each with its handler."),
      }),
    ),
    prompts: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), Prompt, {
        ...describe("The captured prompts this fake serves (`prompts/list`, `prompts/get`), by name, each with its messages."),
      }),
    ),
    logging: Type.Optional(
      Type.Boolean(
        describe(
          "Declare the logging capability: `logging/setLevel` is answered and a handler's `ctx.log` is also sent to the client as `notifications/message` (at or above the level the client set).",
          { default: false },
        ),
      ),
    ),
    sessions: Type.Optional(
      Type.Boolean(
        describe(
          "Serve 2025-era clients with MCP sessions (`Mcp-Session-Id`, a standing GET stream) instead of statelessly: needed for a server that asks the client (`ctx.elicit`, `ctx.sample`) or pushes `notifications/resources/updated` to subscribers, since the protocol routes those by session.",
          { default: false },
        ),
      ),
    ),
    pageSize: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10000,
        ...describe(
          "Items per page of `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list` (a `nextCursor` for the rest); every item on one page when unset.",
        ),
      }),
    ),
    entities: Type.Optional(Entities),
    areas: Type.Optional(
      Type.Record(Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$" }), Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }), {
        ...describe(
          "Groups of served tools that tool-selection evals score together (a tool in one area at most); a tool in none scores under the server's id.",
          { examples: [{ "read-files": ["read_text_file", "read_multiple_files"], "write-files": ["write_file", "edit_file"] }] },
        ),
      }),
    ),
    tools: Type.Record(Type.String({ minLength: 1 }), Tool, {
      ...describe(
        "The allow-list and the entity map: the captured tools this fake serves (in captured order, whatever the order here), each with its handler.",
      ),
    }),
  },
  {
    additionalProperties: false,
    ...describe("An MCP fake, served at `/<id>/mcp`."),
  },
);

export const Servers = Type.Record(Type.String({ pattern: ID_PATTERN }), Server, {
  additionalProperties: false,
  ...describe("MCP fakes by id. The id is URL-safe (`a-z`, `0-9`, `-`) and names the path `/<id>/mcp`.", {
    examples: [{ notes: { captured: "mcp/notes/tools.json", tools: {} } }],
  }),
});
