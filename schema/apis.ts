import { Type } from "typebox";
import { describe, ID_PATTERN } from "./describe.js";
import { JsonataBlock } from "./handlers.js";
import { Expression } from "./json-schema.js";
import { Entities, EntityNames, Required } from "./servers.js";

/** emulate@0.12.2's built-in services. */
export const EMULATE_SERVICES = [
  "vercel",
  "github",
  "google",
  "slack",
  "apple",
  "microsoft",
  "okta",
  "aws",
  "resend",
  "stripe",
  "mongoatlas",
  "clerk",
  "linear",
  "twilio",
] as const;

const Operation = Type.Object(
  {
    description: Type.Optional(Type.String(describe("A note for the Recipe's readers."))),
    reads: Type.Optional(EntityNames("The entities the operation reads.")),
    writes: Type.Optional(EntityNames("The entities the operation writes.")),
    jsonata: Type.Optional(
      Type.Union([Expression("The response."), JsonataBlock], {
        ...describe(
          "The operation's JSONata handler, an expression or a block (`let`, `fail`, `set`, `return`, `isError`) whose answer is `{ status, body, headers? }`. Bindings: `$request` (`method`, `path`, `params`, `query`, `headers`, `body`, `baseUrl`), `$state`, `$world`, `$now`, `$scenario`.",
          { examples: ['{ "status": 200, "body": { "value": $state.messages } }'] },
        ),
      }),
    ),
  },
  { additionalProperties: false, ...describe("A served operation: its entity map and its handler.") },
);

const Capture = Type.Object(
  {
    source: Type.String(describe("Where the published OpenAPI document was read from (a URL pinned to a revision, or a file).")),
    operations: Type.Array(
      Type.String(),
      describe("The operations kept, as `METHOD /path` or operationId.", { examples: [["GET /repos/{owner}/{repo}/issues"]] }),
    ),
    dropNavigationProperties: Type.Optional(
      Type.Boolean(describe("Drop OData navigation properties (`x-ms-navigationProperty`) from kept schemas.", { default: false })),
    ),
    dropRequired: Type.Optional(Type.Array(Type.String(), describe("Property names removed from every `required` list.", { examples: [["@odata.type"]] }))),
    addResponses: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Record(Type.String({ pattern: "^([1-5][0-9][0-9]|[1-5]XX|default)$" }), Type.Object({}, { additionalProperties: true })),
        {
          ...describe("Responses the document forgot, by operation and status code.", {
            examples: [{ "me.message.send": { "202": { description: "Accepted" } } }],
          }),
        },
      ),
    ),
  },
  { additionalProperties: false, ...describe("How `eval-simulate capture` trimmed the document: rerun with no flags to read it again, `--check` to compare.") },
);

/** An API fake: an OpenAPI document, or one of emulate's built-ins. */
export const Api = Type.Object(
  {
    description: Type.Optional(Type.String(describe("What the real API is."))),
    required: Type.Optional(Required),
    openapi: Type.Optional(Type.String(describe("The trimmed OpenAPI document (3.0 or 3.1, JSON or YAML).", { examples: ["api/github/openapi.yaml"] }))),
    emulate: Type.Optional(
      Type.Union(
        EMULATE_SERVICES.map((name) => Type.Literal(name)),
        describe("One of emulate's built-in services, seeded from the world, instead of an OpenAPI document."),
      ),
    ),
    hosts: Type.Optional(Type.Array(Type.String(), describe("Requests whose Host is one of these are this fake's.", { examples: [["api.github.com"]] }))),
    handlers: Type.Optional(
      Type.String(describe("A TypeScript or JavaScript module mapping operation names to handlers.", { examples: ["api/github/handlers.ts"] })),
    ),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, ...describe("A handler's time limit in milliseconds.", { default: 30000 }) })),
    entities: Type.Optional(Entities),
    operations: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), Operation, {
        ...describe("The served operations, by operationId or `METHOD /path/template`, each with its handler."),
      }),
    ),
    capture: Type.Optional(Capture),
  },
  { additionalProperties: false, ...describe("An API fake, served at `/<id>/...` and for its `hosts`.") },
);

export const Apis = Type.Record(Type.String({ pattern: ID_PATTERN }), Api, {
  additionalProperties: false,
  ...describe("API fakes by id. The id is URL-safe and unique across servers and apis."),
});
