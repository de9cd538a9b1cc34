import { dirname, join, relative, resolve } from "node:path";
import { existsSync } from "node:fs";
import { type ArgsDef, defineCommand } from "citty";
import { parseDocument } from "yaml";
import { readFileSync } from "node:fs";
import { mcpTarget } from "../engine/author/capture/index.js";
import { readCalls } from "../engine/tools/fidelity/index.js";
import { observe } from "../engine/tools/fidelity/index.js";
import { headerFlags } from "./capture-mcp.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";

const args = {
  calls: { type: "positional", required: true, description: "The calls: a record file (JSON lines) or a YAML/JSON list of { tool, args }", valueHint: "calls" },
  id: { type: "string", required: true, description: "The fake's id: the file is mcp/<id>/observed.json beside the manifest (or its servers.<id>.observed)" },
  against: { type: "string", description: 'The real server over stdio: "[NAME=value ...] <command> [args...]" (default: the manifest\'s servers.<id>.capture)' },
  "against-url": { type: "string", description: "The real server over Streamable HTTP" },
  header: { type: "string", description: 'A header for --against-url, "Name: value" (repeatable)' },
  manifest: { type: "string", default: "fakes.yaml", description: "The manifest declaring the fake" },
  out: { type: "string", description: "Where to write observed.json" },
} satisfies ArgsDef;

/** `eval-simulate observe <calls> --id <id>`: what the real server answers, as observed.json. */
export default defineCommand({
  meta: { name: "observe", description: "Run calls on the real MCP server and write what it answered, per tool, to mcp/<id>/observed.json." },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    const manifest = resolve(parsed.manifest ?? "fakes.yaml");
    try {
      const server = existsSync(manifest) ? ((parseDocument(readFileSync(manifest, "utf8")).getIn(["servers", parsed.id]) as { toJSON?: () => Record<string, unknown> } | undefined)?.toJSON?.() ?? {}) : {};
      const recorded = (server.capture ?? {}) as { command?: string; url?: string };
      const given = parsed.against !== undefined || parsed["against-url"] !== undefined;
      const target = mcpTarget({
        command: given ? parsed.against : recorded.command,
        url: given ? parsed["against-url"] : recorded.url,
        headers: headerFlags(rawArgs),
      });
      const out = parsed.out ? resolve(parsed.out) : join(dirname(manifest), (server.observed as string | undefined) ?? `mcp/${parsed.id}/observed.json`);
      const { observed, answers } = await observe({ calls: readCalls(parsed.calls), target, server: parsed.id, out });
      const skipped = answers.length - Object.values(observed.tools).reduce((sum, tool) => sum + tool.sampled, 0);
      process.stdout.write(
        `wrote ${relative(process.cwd(), out)}: ${Object.keys(observed.tools).length} tools from ${answers.length} calls` +
          `${skipped > 0 ? ` (${skipped} errors not sampled)` : ""}\n`,
      );
    } catch (error) {
      process.stderr.write(`eval-simulate: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
      process.exitCode = EXIT.usage;
    }
  },
});
