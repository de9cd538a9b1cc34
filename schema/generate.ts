/** Writes eval-simulate.schema.json and eval-simulate.evals.schema.json from the TypeBox definitions: `npm run schema`. */
import { writeFileSync } from "node:fs";
import { evalsJsonSchemaText } from "./evals/document.js";
import { manifestJsonSchemaText } from "./json-schema-document.js";

for (const [name, text] of [
  ["eval-simulate.schema.json", manifestJsonSchemaText()],
  ["eval-simulate.evals.schema.json", evalsJsonSchemaText()],
] as const) {
  const target = new URL(`../${name}`, import.meta.url);
  writeFileSync(target, text);
  console.log(`wrote ${target.pathname}`);
}
