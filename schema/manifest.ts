import { type Static, Type } from "typebox";
import { Apis } from "./apis.js";
import { describe, NAME_PATTERN } from "./describe.js";
import { Expression, JsonSchema } from "./json-schema.js";
import { Scenarios } from "./scenarios.js";
import { Servers } from "./servers.js";

const Invariant = Type.Object(
  {
    name: Type.String(describe("What must hold, as a sentence.", { examples: ["note ids are unique"] })),
    assert: Expression("Holds (is true) for every scenario's world, read as `$world`.", [
      "$count($distinct($world.notes.notes.id)) = $count($world.notes.notes)",
    ]),
  },
  { additionalProperties: false, ...describe("A rule every scenario's world must satisfy.") },
);

/** The whole of `fakes.yaml`. */
export const ManifestSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String(describe("The JSON Schema this file follows (editors read it)."))),
    version: Type.Literal(1, describe("The manifest format's version.", { default: 1 })),
    description: Type.Optional(Type.String(describe("What these fakes stand in for."))),
    servers: Type.Optional(Servers),
    apis: Type.Optional(Apis),
    world: Type.Optional(
      Type.String(
        describe("Instead of `scenarios`: a TypeScript or JavaScript module exporting `world(scenario, clock)` and `SCENARIOS`.", {
          examples: ["scenarios/index.ts"],
        }),
      ),
    ),
    scenarios: Type.Optional(Scenarios),
    schemas: Type.Optional(
      Type.Record(Type.String({ pattern: NAME_PATTERN }), JsonSchema("A named schema."), {
        additionalProperties: false,
        ...describe('Named JSON Schemas, used anywhere a schema goes as `{ $ref: "#/schemas/<name>" }`.'),
      }),
    ),
    functions: Type.Optional(
      Type.Record(
        Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }),
        Expression("A JSONata function, `function($a, …) { … }`, callable as `$<name>(…)`.", ["function($tasks) { $tasks[status = 'open'] }"]),
        {
          additionalProperties: false,
          ...describe(
            "JSONata functions declared once, callable by name from every JSONata handler and invariant (not an evals file's expressions; each sees those before it, and the same bindings as the expression calling it: `$state`, `$args`, `$world`…).",
          ),
        },
      ),
    ),
    invariants: Type.Optional(Type.Array(Invariant, describe("Rules checked on every scenario's world."))),
    redact: Type.Optional(
      Type.Array(
        Type.String(),
        describe("More field names (case-insensitive) to redact from the journal and the record, beside Authorization, cookies and common secrets.", {
          examples: [["accessToken"]],
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    ...describe("eval-simulate's manifest: the MCP servers and APIs a Recipe's agent uses, faked."),
  },
);

export type ManifestDocument = Static<typeof ManifestSchema>;
