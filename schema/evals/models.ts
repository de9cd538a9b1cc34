import { type Static, Type } from "typebox";
import { describe } from "../describe.js";

const ScriptedModelAnswer = Type.Object(
  {
    text: Type.Optional(Type.String(describe("The answer's text."))),
    toolCalls: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ minLength: 1, ...describe("The tool's name, as the agent offered it to the model.") }),
            arguments: Type.Optional(Type.Record(Type.String(), Type.Unknown(), describe("Its arguments (`{}` when left out)."))),
          },
          { additionalProperties: false },
        ),
        describe("Tool calls the model asks for."),
      ),
    ),
    usage: Type.Optional(
      Type.Object(
        {
          input: Type.Integer({ minimum: 0, ...describe("Input tokens.") }),
          output: Type.Integer({ minimum: 0, ...describe("Output tokens.") }),
        },
        { additionalProperties: false, ...describe("The tokens it reports.", { default: { input: 10, output: 5 } }) },
      ),
    ),
  },
  { additionalProperties: false, ...describe("One model answer: text, tool calls, or both.") },
);

/** A case's `models:` block: its agent's model traffic served on the fakes' port. */
export const CaseModels = Type.Object(
  {
    script: Type.Optional(
      Type.Array(ScriptedModelAnswer, {
        minItems: 1,
        ...describe(
          "Scripted mode: the model's answers, one per model request in order, in whatever API and streaming the agent asks for (no recording, no key).",
          { examples: [[{ toolCalls: [{ name: "close_ticket", arguments: { id: "T-101" } }] }, { text: "Closed T-101." }]] },
        ),
      }),
    ),
    match: Type.Optional(
      Type.Object(
        {
          ignore: Type.Optional(
            Type.Array(Type.Union([Type.Literal("ids"), Type.Literal("timestamps"), Type.Literal("toolResults")]), {
              uniqueItems: true,
              ...describe(
                "What a replayed request may differ in from its recording: `ids` (tool call ids, numbered by first use), `timestamps` (ISO 8601 times in any text), `toolResults` (the text of tool results).",
                { default: ["ids"] },
              ),
            }),
          ),
        },
        { additionalProperties: false, ...describe("How a request is matched to a recorded one.") },
      ),
    ),
    upstreamTimeoutMs: Type.Optional(
      Type.Integer({ minimum: 1, ...describe("Recording: one request to the real provider, to the last byte of its answer.", { default: 300000 }) }),
    ),
  },
  {
    additionalProperties: false,
    ...describe(
      "Serve the agent's model on the fakes' port (a command host's agent is given `OPENAI_BASE_URL` and `ANTHROPIC_BASE_URL`): scripted by `script`, else replayed from the case's cassette beside the evals file, recorded with `eval --record-models`.",
    ),
  },
);

export type CaseModelsDocument = Static<typeof CaseModels>;
