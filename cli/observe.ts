import { dirname, join, relative, resolve } from "node:path";
import { existsSync } from "node:fs";
import { type ArgsDef, defineCommand } from "citty";
import { parseDocument } from "yaml";
import { readFileSync } from "node:fs";
import { mcpTarget } from "../engine/author/capture/index.js";
import { readCalls } from "../engine/tools/fidelity/index.js";
import { observe, recordObserved } from "../engine/tools/fidelity/index.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { REAL_SERVER_RENAMED, renamedFlag, takeRenamed } from "./flag-aliases.js";
import { manifestArgs, manifestOf } from "./manifest-arg.js";
import { repeatedFlag } from "./repeated-flag.js";

const args = {
  calls: { type: "positional", required: true, description: "The calls: a record file (JSON lines) or a YAML/JSON list of { tool, args }", valueHint: "calls" },
  id: { type: "string", required: true, description: "The fake's id: the file is mcp/<id>/observed.json beside the manifest (or its servers.<id>.observed)" },
  ...manifestArgs("The manifest declaring the fake"),
  mcp: {
    type: "string",
    description: 'The real MCP server over stdio: "[NAME=value ...] <command> [args...]" (default: the manifest\'s servers.<id>.capture)',
  },
  "mcp-url": { type: "string", description: "The real MCP server over Streamable HTTP" },
  header: { type: "string", description: 'A header for --mcp-url, "Name: value" (repeatable)' },
  against: renamedFlag("mcp"),
  "against-url": renamedFlag("mcp-url"),
  out: { type: "string", description: "Where to write observed.json" },
} satisfies ArgsDef;

/** `eval-simulate observe <calls> --id <id>`: what the real server answers, as observed.json. */
export default defineCommand({
  meta: { name: "observe", description: "Run calls on the real MCP server and write what it answered, per tool, to mcp/<id>/observed.json." },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args) || !takeRenamed("observe", parsed, REAL_SERVER_RENAMED)) return;
    const given = manifestOf("observe", parsed, 1);
    if (given === undefined) return;
    const manifest = resolve(given);
    try {
      const server = existsSync(manifest)
        ? ((
            parseDocument(readFileSync(manifest, "utf8")).getIn(["servers", parsed.id]) as { toJSON?: () => Record<string, unknown> } | undefined
          )?.toJSON?.() ?? {})
        : {};
      const recorded = (server.capture ?? {}) as { command?: string; url?: string };
      const named = parsed.mcp !== undefined || parsed["mcp-url"] !== undefined;
      if (!named && recorded.command === undefined && recorded.url === undefined) {
        const where = existsSync(manifest) ? `servers.${parsed.id}.capture in ${relative(process.cwd(), manifest)} names none` : `there is no ${given}`;
        throw new Error(`observe: name the real server with --mcp "<command>" or --mcp-url <url> (${where}; capture records it)`);
      }
      const target = mcpTarget({
        command: named ? parsed.mcp : recorded.command,
        url: named ? parsed["mcp-url"] : recorded.url,
        headers: repeatedFlag(rawArgs, "header"),
      });
      const out = parsed.out ? resolve(parsed.out) : join(dirname(manifest), (server.observed as string | undefined) ?? `mcp/${parsed.id}/observed.json`);
      const { observed, answers } = await observe({ calls: readCalls(parsed.calls), target, server: parsed.id, out });
      const skipped = answers.length - Object.values(observed.tools).reduce((sum, tool) => sum + tool.sampled, 0);
      const noted = recordObserved(manifest, parsed.id, out);
      process.stdout.write(
        `wrote ${relative(process.cwd(), out)}: ${Object.keys(observed.tools).length} tools from ${answers.length} calls` +
          `${skipped > 0 ? ` (${skipped} errors not sampled)` : ""}\n` +
          `${noted ? `recorded servers.${parsed.id}.observed in ${relative(process.cwd(), manifest)}\n` : ""}`,
      );
    } catch (error) {
      process.stderr.write(`eval-simulate: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
      process.exitCode = EXIT.usage;
    }
  },
});
