import { EvalsSchema } from "./evals.js";

/** Where the published evals schema says it lives, for editors that follow `$id`. */
export const EVALS_SCHEMA_ID = "https://unpkg.com/eval-simulate/eval-simulate.evals.schema.json";

/** The evals format's JSON Schema as published in `eval-simulate.evals.schema.json` (draft-07). */
export function evalsJsonSchema(): Record<string, unknown> {
  const body = JSON.parse(JSON.stringify(EvalsSchema)) as Record<string, unknown>;
  return { $schema: "http://json-schema.org/draft-07/schema#", $id: EVALS_SCHEMA_ID, title: "eval-simulate evals (evals.yaml)", ...body };
}

/** The schema file's text, as committed. */
export function evalsJsonSchemaText(): string {
  return `${JSON.stringify(evalsJsonSchema(), null, 2)}\n`;
}
