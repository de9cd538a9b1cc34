import { type ArgsDef, defineCommand } from "citty";
import { isEvalsFile } from "../engine/core/files/index.js";
import { checkManifest } from "../engine/author/manifest/index.js";
import { clockFlag, EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { formatArg } from "./formats.js";
import { repeatedFlag } from "./repeated-flag.js";
import { renderGithub, renderJson, renderText, type ValidationOutcome } from "./render-diagnostics.js";

const args = {
  manifests: {
    type: "positional",
    description: "The manifests and evals files to check (or --manifest, repeatable; default ./fakes.yaml)",
    required: false,
    valueHint: "fakes.yaml...",
  },
  manifest: { type: "string", description: "A manifest, as a flag instead of a positional (repeatable)", valueHint: "fakes.yaml" },
  format: formatArg("How to print problems", ["text", "json", "github"]),
  clock: { type: "string", description: "The clock scenario worlds are built at for their checks (ISO 8601; default now)" },
  "allow-outside": { type: "boolean", description: "Also read files the manifest names outside its own folder (EVAL_SIMULATE_ALLOW_OUTSIDE=1)" },
} satisfies ArgsDef;

/** `eval-simulate validate [fakes.yaml...]`: every problem of every manifest, at once. */
export default defineCommand({
  meta: {
    name: "validate",
    description:
      "Check fakes.yaml files (schema, files, handlers, scenarios) and evals.yaml files (tools, entities, scenarios, patterns, JSONata). Exit 0 valid, 1 invalid, 2 usage or I/O error.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    if (!clockFlag(parsed.clock).ok) return;
    const given = [...parsed._, ...repeatedFlag(rawArgs, "manifest")];
    const files = given.length > 0 ? given : ["fakes.yaml"];
    const outcomes: ValidationOutcome[] = [];
    let unreadable = false;
    for (const file of files) {
      // An evals file (named evals.yaml, or holding `fakes` and `cases`) is checked with the fakes it names.
      if (isEvalsFile(file)) {
        // The judge is loaded only for an evals file: checking manifests never needs it.
        const { checkEvals } = await import("../engine/judge/evals/index.js");
        const checked = await checkEvals(file, { clock: parsed.clock, ...(parsed["allow-outside"] ? { allowOutside: true } : {}) });
        if (!checked.evals && checked.diagnostics.length === 1 && checked.diagnostics[0].code === "E_IO" && checked.diagnostics[0].path === "(root)")
          unreadable = true;
        outcomes.push({
          file,
          valid: checked.evals !== undefined,
          diagnostics: checked.diagnostics,
          evals: checked.evals && { cases: checked.evals.cases?.length ?? 0, selection: checked.evals.selection?.length ?? 0 },
        });
        continue;
      }
      const { manifest, diagnostics } = await checkManifest(file, { clock: parsed.clock, ...(parsed["allow-outside"] ? { allowOutside: true } : {}) });
      if (!manifest && diagnostics.length === 1 && diagnostics[0].code === "E_IO" && diagnostics[0].path === "(root)") unreadable = true;
      outcomes.push({
        file,
        valid: manifest !== undefined,
        diagnostics,
        summary: manifest && {
          servers: manifest.servers.length,
          tools: manifest.servers.reduce((n, s) => n + s.tools.length, 0),
          apis: manifest.apis.length,
          scenarios: manifest.world.scenarios.length,
        },
      });
    }
    const render = parsed.format === "json" ? renderJson : parsed.format === "github" ? renderGithub : renderText;
    process.stdout.write(render(outcomes));
    process.exitCode = unreadable ? EXIT.usage : outcomes.every((o) => o.valid) ? EXIT.ok : EXIT.invalid;
  },
});
