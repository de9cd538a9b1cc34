import { ManifestSchema } from "./manifest.js";

/** Where the published schema says it lives, for editors that follow `$id`. */
export const SCHEMA_ID = "https://unpkg.com/eval-simulate/eval-simulate.schema.json";

/**
 * The manifest's JSON Schema as published in `eval-simulate.schema.json`: draft-07, which
 * yaml-language-server and VS Code complete best.
 */
export function manifestJsonSchema(): Record<string, unknown> {
  const body = JSON.parse(JSON.stringify(ManifestSchema)) as Record<string, unknown>;
  return { $schema: "http://json-schema.org/draft-07/schema#", $id: SCHEMA_ID, title: "eval-simulate manifest (fakes.yaml)", ...body };
}

/** The schema file's text, as committed. */
export function manifestJsonSchemaText(): string {
  return `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`;
}
