import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { type ArgsDef, defineCommand } from "citty";
import type { CheckResult } from "../engine/entries/checks.js";
import { checkManifest } from "../engine/author/manifest/index.js";
import { parseClock } from "../engine/author/world/index.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { renamedFlag, takeRenamed } from "./flag-aliases.js";
import { formatArg } from "./formats.js";
import { manifestArgs, manifestOf } from "./manifest-arg.js";
import { escapeData, escapeProperty, renderText as renderDiagnostics } from "./render-diagnostics.js";

const args = {
  ...manifestArgs("The manifest whose fakes to check"),
  format: formatArg("How to print results", ["text", "json", "github"]),
  record: {
    type: "string",
    description: "The record the contract tests wrote (JSON lines, one per call): replayed, and held to the observations",
    valueHint: "record.jsonl",
  },
  recording: renamedFlag("record"),
  clock: { type: "string", description: "The clock worlds are built at (ISO 8601; default now)" },
  "allow-outside": { type: "boolean", description: "Also read files the manifest names outside its own folder (EVAL_SIMULATE_ALLOW_OUTSIDE=1)" },
  "require-observed": {
    type: "boolean",
    description: "Fail the observed check for any allowed tool without an observation (instead of reporting it not checked)",
  },
} satisfies ArgsDef;

/** One line per check (a failure's message indented under it), then the count. */
export function renderText(results: CheckResult[]): string {
  let out = "";
  for (const result of results) {
    const note = result.ok && result.message ? ` (${result.checked ? "" : "not checked: "}${result.message})` : "";
    out += `${!result.ok ? "✗" : result.checked ? "✓" : "○"} ${result.name}${note}\n`;
    if (!result.ok) out += `${result.message.replace(/^/gm, "    ")}\n`;
  }
  const failed = results.filter((r) => !r.ok).length;
  const unchecked = results.filter((r) => r.ok && !r.checked).length;
  return `${out}${results.length - failed - unchecked} passed, ${failed} failed${unchecked ? `, ${unchecked} not checked` : ""}\n`;
}

/** The text lines, then a GitHub Actions `::error` annotation per failed check. */
export function renderGithub(results: CheckResult[], manifest: string): string {
  const file = escapeProperty(relative(process.cwd(), manifest) || manifest);
  const annotations = results
    .filter((r) => !r.ok)
    .map((r) => `::error file=${file},title=${escapeProperty(r.name)}::${escapeData(r.message)}\n`)
    .join("");
  return renderText(results) + annotations;
}

function usage(message: string): void {
  process.stderr.write(`eval-simulate: ${message}\n`);
  process.exitCode = EXIT.usage;
}

/** `eval-simulate check [fakes.yaml]`: the checks a Recipe keeps, without a test file. */
export default defineCommand({
  meta: {
    name: "check",
    description:
      "Run the checks every Recipe keeps about its fakes (what checkRecipeFakes registers). Exit 0 all pass, 1 any fails (or the manifest is invalid), 2 usage or an unreadable manifest.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args) || !takeRenamed("check", parsed, { recording: "record" })) return;
    const given = manifestOf("check", parsed, 0);
    if (given === undefined) return;
    const manifest = resolve(given);
    if (parsed.clock !== undefined) {
      try {
        parseClock(parsed.clock);
      } catch (error) {
        return usage(`--clock: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`);
      }
    }
    if (parsed.record !== undefined && !existsSync(parsed.record)) return usage(`--record: no file ${parsed.record}`);
    // The checks load the manifest again themselves: the environment carries the flag to them.
    if (parsed["allow-outside"]) process.env.EVAL_SIMULATE_ALLOW_OUTSIDE = "1";
    const { manifest: loaded, diagnostics } = await checkManifest(manifest, { clock: parsed.clock });
    if (!loaded) {
      process.stderr.write(renderDiagnostics([{ file: manifest, valid: false, diagnostics }]));
      process.stderr.write(
        `eval-simulate: ${relative(process.cwd(), manifest) || manifest} is not valid; fix it first (eval-simulate validate shows every problem)\n`,
      );
      // An unreadable manifest is an I/O error (2); an invalid one fails the checks (1).
      process.exitCode = diagnostics.some((d) => d.code === "E_IO" && d.path === "(root)") ? EXIT.usage : EXIT.invalid;
      return;
    }
    let checks: typeof import("../engine/entries/checks.js");
    try {
      checks = await import("../engine/entries/checks.js");
    } catch (error) {
      if (!/@modelcontextprotocol\/client/.test(String((error as Error)?.message))) throw error;
      return usage("check talks to the fakes with the official MCP client: npm install --save-dev @modelcontextprotocol/client");
    }
    const results = await checks.runRecipeChecks({
      manifest,
      ...(parsed.record === undefined ? {} : { record: resolve(parsed.record) }),
      ...(parsed.clock === undefined ? {} : { clock: parsed.clock }),
      ...(parsed["require-observed"] === true && { requireObserved: true }),
    });
    const out =
      parsed.format === "json" ? `${JSON.stringify(results, null, 2)}\n` : parsed.format === "github" ? renderGithub(results, manifest) : renderText(results);
    process.stdout.write(out);
    process.exitCode = results.every((r) => r.ok) ? EXIT.ok : EXIT.invalid;
  },
});
