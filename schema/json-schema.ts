import { Type } from "typebox";
import { describe } from "./describe.js";

/**
 * A JSON Schema written inside the manifest (an entity's state, an answer's decoded value, a
 * named schema). The manifest's schema only says it is an object or a boolean; `validate`
 * compiles each one and reports what is wrong with it at its line.
 */
export const JsonSchema = (text: string) =>
  Type.Unsafe<Record<string, unknown> | boolean>({
    type: ["object", "boolean"],
    ...describe(
      `${text} A JSON Schema (draft-07 unless it states \`$schema\`); \`{ $ref: "#/schemas/<name>" }\` refers to a schema under the manifest's \`schemas\`.`,
      { examples: [{ type: "array", items: { $ref: "#/schemas/Note" } }] },
    ),
  });

/** A JSONata expression, compiled when the manifest loads. */
export const Expression = (text: string, examples?: string[]) =>
  Type.String({ minLength: 1, ...describe(`${text} A JSONata expression.`, examples ? { examples } : {}) });
