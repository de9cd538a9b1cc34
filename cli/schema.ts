import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defineCommand } from "citty";
import { packageRoot } from "../engine/author/manifest/index.js";
import { refuseUnknownFlags } from "./exit-codes.js";

/** `eval-simulate schema`: prints eval-simulate.schema.json, the manifest's JSON Schema. */
export default defineCommand({
  meta: { name: "schema", description: "Print the JSON Schema of fakes.yaml (draft-07), for editors and other tools." },
  args: {},
  run({ rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, {})) return;
    process.stdout.write(readFileSync(join(packageRoot(), "eval-simulate.schema.json"), "utf8"));
  },
});
