import { Type } from "typebox";
import { EntityValue } from "./data-file.js";
import { describe, ID_PATTERN } from "./describe.js";

const Outcome = Type.Object(
  {
    answer: Type.Optional(Type.Unknown(describe("A successful answer: a value encoded in the tool's format."))),
    error: Type.Optional(Type.String(describe("A tool error with this text.", { examples: ["Service unavailable"] }))),
    content: Type.Optional(
      Type.Array(
        Type.Object(
          {},
          {
            additionalProperties: true,
            ...describe(
              "One MCP content block: `{ type: text, text }`, `{ type: image | audio, data, mimeType }`, `{ type: resource_link, uri, name }` or `{ type: resource, resource: { uri, text | blob } }`.",
            ),
          },
        ),
        {
          minItems: 1,
          ...describe("MCP fakes: a successful answer made of these content blocks (text, image, audio, resource_link, resource), sent as they are.", {
            examples: [
              [
                { type: "text", text: "Here it is" },
                { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
              ],
            ],
          }),
        },
      ),
    ),
    status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, ...describe("API fakes: the response status.") })),
    body: Type.Optional(Type.Unknown(describe("API fakes: the response body."))),
    headers: Type.Optional(Type.Record(Type.String(), Type.String(), describe("API fakes: response headers."))),
    delayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 600000, ...describe("Wait this long before answering.") })),
    progress: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        ...describe(
          "MCP fakes, with `delayMs`: send this many `notifications/progress` (1 of N … N of N) spread over the delay, to a request that carried a progress token; kept in the call's journal entry.",
          { examples: [4] },
        ),
      }),
    ),
    pass: Type.Optional(Type.Literal(true, describe("Run the handler as if no stub matched."))),
  },
  {
    additionalProperties: false,
    ...describe("One scripted outcome: `answer`, `content`, `error`, `status`+`body`, or `pass: true`; `delayMs` may go with any."),
  },
);

export const Stub = Type.Object(
  {
    id: Type.String({ pattern: ID_PATTERN, ...describe("The stub's id, unique in its scenario; unused stubs are reported by it.") }),
    tool: Type.String({
      pattern: "^[a-z0-9][a-z0-9-]*/.+$",
      ...describe("`<server>/<tool>` or `<api>/<operation>`.", { examples: ["notes/create-note"] }),
    }),
    match: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.Object({}), Type.Boolean()]), {
        ...describe(
          "Constraints on the arguments, by name, each a JSON Schema (a reference-free subset); every listed argument must exist and satisfy it. Omit to match every call.",
          { examples: [{ to: { type: "string", pattern: "@example\\.com$" } }] },
        ),
      }),
    ),
    outcome: Type.Optional(Outcome),
    outcomes: Type.Optional(Type.Array(Outcome, { minItems: 1, ...describe("A sequence: each matching call takes the next; the last repeats.") })),
  },
  { additionalProperties: false, ...describe("A scripted answer tried before the handler; the first matching stub wins.") },
);

export const Fault = Type.Object(
  {
    tool: Type.String({
      pattern: "^[a-z0-9][a-z0-9-]*/.+$",
      ...describe("`<server>/<tool>`, `<api>/<operation>`, or `<fake>/*` for every tool or operation of a fake.", { examples: ["notes/*"] }),
    }),
    latencyMs: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 600000 }), Type.Tuple([Type.Integer({ minimum: 0 }), Type.Integer({ minimum: 0, maximum: 600000 })])], {
        ...describe("Added to each call: a fixed delay, or `[min, max]` drawn per call from `seed` (the same sequence every run).", {
          examples: [250, [100, 400]],
        }),
      }),
    ),
    http: Type.Optional(
      Type.Union([Type.Literal("empty_response"), Type.Literal("connection_reset"), Type.Literal("malformed_body")], {
        ...describe("API fakes: an HTTP-level failure instead of the answer: close with no response, reset the connection, or a 200 whose body is not JSON."),
      }),
    ),
    rate: Type.Optional(Type.Number({ minimum: 0, maximum: 1, ...describe("The share of calls the fault hits, drawn from `seed`.", { default: 1 }) })),
    seed: Type.Optional(Type.Integer(describe("Seeds the draws of `latencyMs` ranges and `rate`.", { default: 1 }))),
  },
  { additionalProperties: false, ...describe("Latency or an HTTP failure injected into matching calls, the same way every run.") },
);

export const Scenario = Type.Object(
  {
    description: Type.Optional(Type.String(describe("What this world is."))),
    default: Type.Optional(Type.Boolean(describe("The scenario served when none is named. Exactly one scenario is the default.", { default: false }))),
    extends: Type.Optional(Type.String(describe("A scenario this one starts from: objects merge deeply, arrays are replaced."))),
    state: Type.Optional(
      Type.Record(
        Type.String({ pattern: ID_PATTERN }),
        Type.Record(Type.String(), EntityValue("The entity's value in this scenario, or `{ $file: data/records.json }`.")),
        {
          ...describe(
            'Each fake\'s state by fake id and entity, merged over the entities\' defaults. Values may be `{ $date: "-3d" }`, `{ $date: "-1d", at: "09:00" }`, `{ $id: "label" }`, `{ $expr: "<jsonata>" }`, or `{ $file: data/records.json }` (a JSON or JSON Lines data file beside the manifest).',
          ),
        },
      ),
    ),
    stubs: Type.Optional(Type.Array(Stub, describe("Scripted outcomes, tried top to bottom before the handler."))),
    faults: Type.Optional(Type.Array(Fault, describe("Latency and HTTP failures for chosen tools and operations; inherited through `extends`."))),
  },
  { additionalProperties: false, ...describe("A named starting world.") },
);

export const Scenarios = Type.Record(Type.String({ pattern: ID_PATTERN }), Scenario, {
  additionalProperties: false,
  ...describe("Named starting worlds. Names are URL-safe."),
});
