import { Type } from "typebox";
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
      Type.Unknown(describe("The entity's value when a scenario does not set it.", { examples: [[]] })),
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
    format: Type.Enum(["json", "toon", "prefixed_json", "text"], {
      ...describe(
        "The answer's format: `json`; `toon` (Token-Oriented Object Notation, an empty array written `key[0]:`); `prefixed_json` (a fixed `prefix`, the JSON, an optional `suffix`); `text` (no schema).",
        { examples: ["json"] },
      ),
    }),
    schema: Type.Optional(JsonSchema("The decoded answer's schema. Not for `text`.")),
    prefix: Type.Optional(
      Type.String(describe("`prefixed_json` only: the text before the JSON.", { examples: ["Email sent successfully! "] })),
    ),
    suffix: Type.Optional(Type.String(describe("`prefixed_json` only: the text after the JSON."))),
  },
  {
    additionalProperties: false,
    ...describe(
      "The tool's successful answer: its format and the schema of its decoded value. A tool whose capture states an `outputSchema` has no `answer`: it answers with structured content.",
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
        ...describe(
          "`stateful` (the default) reads or writes entities; `static` writes nothing and reads nothing a tool writes or a scenario fills.",
          { default: "stateful" },
        ),
      }),
    ),
    reads: Type.Optional(EntityNames("The entities the tool reads.")),
    writes: Type.Optional(EntityNames("The entities the tool writes. A captured `readOnlyHint: true` forbids any.")),
    answer: Type.Optional(Answer),
    jsonata: Type.Optional(JsonataHandler),
  },
  {
    additionalProperties: false,
    ...describe("A served tool: its entity map, its answer and its handler (`jsonata`, or the handlers module's entry of the same name)."),
  },
);

/** A tool as the real server listed it; kept open, since servers add their own fields. */
const CapturedTool = Type.Object(
  { name: Type.String(describe("The tool's name, as the server lists it.")) },
  describe("A tool as the real server's tools/list gave it: name, title, description, inputSchema, annotations, ..."),
);

/** An MCP fake. */
export const Server = Type.Object(
  {
    description: Type.Optional(Type.String(describe("What the real server is."))),
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
      Type.Integer({ minimum: 1, maximum: 2147483647, ...describe("A handler's time limit in milliseconds; past it the call is a tool error and changes nothing.", { default: 30000 }) }),
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
