/** Writes eval-simulate.schema.json from the TypeBox definitions: `npm run schema`. */
import { writeFileSync } from "node:fs";
import { manifestJsonSchemaText } from "./json-schema-document.js";

const target = new URL("../eval-simulate.schema.json", import.meta.url);
writeFileSync(target, manifestJsonSchemaText());
console.log(`wrote ${target.pathname}`);
