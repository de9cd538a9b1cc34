import { type ArgsDef, defineCommand } from "citty";
import { mcpTarget } from "../engine/author/capture/index.js";
import { answerText } from "../engine/tools/fidelity/index.js";
import { readCalls } from "../engine/tools/fidelity/index.js";
import { replay } from "../engine/tools/fidelity/index.js";
import { headerFlags } from "./capture-mcp.js";
import { clockFlag, EXIT, refuseUnknownFlags } from "./exit-codes.js";

const args = {
  calls: { type: "positional", required: true, description: "The calls: a record file (JSON lines) or a YAML/JSON list of { tool, args }", valueHint: "calls" },
  against: { type: "string", description: 'The real server over stdio: "[NAME=value ...] <command> [args...]"' },
  "against-url": { type: "string", description: "The real server over Streamable HTTP" },
  header: { type: "string", description: 'A header for --against-url, "Name: value" (repeatable)' },
  manifest: { type: "string", default: "fakes.yaml", description: "The manifest declaring the fake" },
  id: { type: "string", description: "The fake's id (default: the manifest's only MCP fake)" },
  scenario: { type: "string", description: "The fake's starting world (default: the default scenario)" },
  clock: { type: "string", description: "The fake's clock, ISO 8601 (default now)" },
  format: { type: "string", default: "text", description: "text or json" },
} satisfies ArgsDef;

/** `eval-simulate replay <calls> --against "<command>"`: the same calls on the real server and a fresh fake, each answer compared. */
export default defineCommand({
  meta: { name: "replay", description: "Run the same calls on the real MCP server and on a fresh fake, and name each call the fake answered differently (exit 1)." },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    const clock = clockFlag(parsed.clock);
    if (!clock.ok) return;
    if ((parsed.against === undefined) === (parsed["against-url"] === undefined) || !["text", "json"].includes(parsed.format ?? "text")) {
      process.stderr.write('eval-simulate: replay takes one of --against "<command>" or --against-url <url>, and --format text or json\n');
      process.exitCode = EXIT.usage;
      return;
    }
    let result: Awaited<ReturnType<typeof replay>>;
    try {
      const target = mcpTarget({ command: parsed.against, url: parsed["against-url"], headers: headerFlags(rawArgs) });
      result = await replay({ manifest: parsed.manifest ?? "fakes.yaml", id: parsed.id, calls: readCalls(parsed.calls), target, scenario: parsed.scenario, clock: clock.clock });
    } catch (error) {
      process.stderr.write(`eval-simulate: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const differing = result.calls.filter((call) => call.differences.length > 0);
    if (parsed.format === "json") {
      process.stdout.write(`${JSON.stringify({ fake: result.id, calls: result.calls.length, differing: differing.length, results: result.calls }, null, 2)}\n`);
    } else if (differing.length === 0) {
      process.stdout.write(`✓ ${result.id}: ${result.calls.length} calls, every answer the same as the real server's\n`);
    } else {
      const lines = differing.map(({ call, real, fake, differences }) =>
        `✗ ${call.tool} ${JSON.stringify(call.args)} (${call.from}): ${differences.join("; ")}\n` +
          `  real: ${JSON.stringify(answerText(real))}\n  fake: ${JSON.stringify(answerText(fake))}\n`,
      );
      process.stdout.write(`${lines.join("")}${differing.length} of ${result.calls.length} calls answered differently by ${result.id}\n`);
    }
    if (differing.length > 0) process.exitCode = EXIT.invalid;
  },
});
