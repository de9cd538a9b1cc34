/** Writes docs/cli.md from the CLI's citty definitions: `npm run docs:cli`. */
import { writeFileSync } from "node:fs";
import { evalSimulate } from "../cli/eval-simulate.js";
import { renderCliReference } from "./cli-reference.js";

const target = new URL("../docs/cli.md", import.meta.url);
writeFileSync(target, await renderCliReference(evalSimulate));
console.log(`wrote ${target.pathname}`);
