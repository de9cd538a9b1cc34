import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { type ArgsDef, defineCommand } from "citty";
import { checkManifest } from "../engine/author/manifest/index.js";
import { generateTypes } from "../engine/author/typegen/index.js";
import { defaultTypesFile } from "../engine/author/typegen/index.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { manifestOf, manifestArgs } from "./manifest-arg.js";
import { renderText } from "./render-diagnostics.js";

const args = {
  ...manifestArgs("The manifest"),
  out: { type: "string", description: "Where to write the types (default: beside the manifest, fakes.yaml → fakes.d.ts)" },
  check: { type: "boolean", description: "Write nothing; exit 1 when the file is missing or differs from what would be written" },
} satisfies ArgsDef;

/** `eval-simulate types [fakes.yaml] [--out fakes.d.ts]`: TypeScript types for the handler modules. */
export default defineCommand({
  meta: {
    name: "types",
    description: "Generate TypeScript types from a manifest for defineHandlers / defineApiHandlers. Exit 0 written, 1 invalid or stale (--check), 2 usage.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    const file = manifestOf("types", parsed, 0);
    if (file === undefined) return;
    const { manifest, diagnostics } = await checkManifest(file);
    if (!manifest) {
      process.stderr.write(renderText([{ file, valid: false, diagnostics }]));
      process.exitCode = diagnostics.some((d) => d.code === "E_IO" && d.path === "(root)") ? EXIT.usage : EXIT.invalid;
      return;
    }
    const out = parsed.out ?? defaultTypesFile(manifest.file);
    const text = await generateTypes(manifest);
    const shown = relative(process.cwd(), out) || out;
    if (parsed.check) {
      let current: string | undefined;
      try {
        current = readFileSync(out, "utf8");
      } catch {
        current = undefined;
      }
      if (current === text) {
        process.stdout.write(`✓ ${shown} is up to date\n`);
        return;
      }
      process.stdout.write(`✗ ${shown} ${current === undefined ? "does not exist" : "differs from the manifest"}: run eval-simulate types\n`);
      process.exitCode = EXIT.invalid;
      return;
    }
    writeFileSync(out, text);
    const names = [...text.matchAll(/^export interface (\w+(?:Fake|Api)) \{/gm)].map((m) => m[1]);
    process.stdout.write(`wrote ${shown}: ${names.join(", ")}\n`);
  },
});
