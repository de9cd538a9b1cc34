import { type ArgsDef, defineCommand } from "citty";
import { mcpTarget } from "../engine/author/capture/index.js";
import { answerText } from "../engine/tools/fidelity/index.js";
import { readCalls } from "../engine/tools/fidelity/index.js";
import { replay } from "../engine/tools/fidelity/index.js";
import { clockFlag, EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { REAL_SERVER_RENAMED, renamedFlag, takeRenamed } from "./flag-aliases.js";
import { formatArg } from "./formats.js";
import { manifestArgs, manifestOf } from "./manifest-arg.js";
import { repeatedFlag } from "./repeated-flag.js";

const args = {
  calls: { type: "positional", required: true, description: "The calls: a record file (JSON lines) or a YAML/JSON list of { tool, args }", valueHint: "calls" },
  ...manifestArgs("The manifest declaring the fake"),
  mcp: {
    type: "string",
    description: 'The real MCP server over stdio: "[NAME=value ...] <command> [args...]"; {{tmp}} is a fresh folder each replay, removed after',
  },
  "mcp-url": { type: "string", description: "The real MCP server over Streamable HTTP" },
  header: { type: "string", description: 'A header for --mcp-url, "Name: value" (repeatable)' },
  id: { type: "string", description: "The fake's id (default: the manifest's only MCP fake)" },
  scenario: { type: "string", description: "The fake's starting world (default: the default scenario)" },
  clock: { type: "string", description: "The fake's clock, ISO 8601 (default now)" },
  ignore: {
    type: "string",
    description:
      "Leave out of every comparison, marked ‹ignored›: a JSON path ($.createdAt, $.items[*].id), a /regex/, or a shape (uuid, iso-date) (repeatable)",
  },
  reset: { type: "string", description: "A shell command run before the real server starts, each replay ({{tmp}} filled in as in --mcp)" },
  format: formatArg("How to print the differences", ["text", "json"]),
  against: renamedFlag("mcp"),
  "against-url": renamedFlag("mcp-url"),
} satisfies ArgsDef;

/** `, with 5 parts ignored (uuid ×3, $.createdAt ×2) and marked ‹ignored›`, or nothing. */
function ignoredText(calls: ReadonlyArray<{ ignored?: string[] }>): string {
  const counts = new Map<string, number>();
  for (const spec of calls.flatMap((c) => c.ignored ?? [])) {
    const [, name, times] = /^(.*?)(?: ×(\d+))?$/s.exec(spec)!;
    counts.set(name, (counts.get(name) ?? 0) + Number(times ?? 1));
  }
  if (counts.size === 0) return "";
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return `, with ${total} part${total === 1 ? "" : "s"} ignored (${[...counts].map(([name, n]) => (n === 1 ? name : `${name} ×${n}`)).join(", ")}) and marked ‹ignored›`;
}

/** `eval-simulate replay <calls> --against "<command>"`: the same calls on the real server and a fresh fake, each answer compared. */
export default defineCommand({
  meta: {
    name: "replay",
    description: "Run the same calls on the real MCP server and on a fresh fake, and name each call the fake answered differently (exit 1).",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args) || !takeRenamed("replay", parsed, REAL_SERVER_RENAMED)) return;
    const clock = clockFlag(parsed.clock);
    if (!clock.ok) return;
    const manifest = manifestOf("replay", parsed, 1);
    if (manifest === undefined) return;
    if ((parsed.mcp === undefined) === (parsed["mcp-url"] === undefined)) {
      process.stderr.write('eval-simulate: replay takes one of --mcp "<command>" or --mcp-url <url>\n');
      process.exitCode = EXIT.usage;
      return;
    }
    let result: Awaited<ReturnType<typeof replay>>;
    try {
      const target = mcpTarget({ command: parsed.mcp, url: parsed["mcp-url"], headers: repeatedFlag(rawArgs, "header") });
      result = await replay({
        manifest,
        id: parsed.id,
        calls: readCalls(parsed.calls),
        target,
        scenario: parsed.scenario,
        clock: clock.clock,
        reset: parsed.reset,
        ignore: repeatedFlag(rawArgs, "ignore"),
      });
    } catch (error) {
      process.stderr.write(`eval-simulate: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const differing = result.calls.filter((call) => call.differences.length > 0);
    if (parsed.format === "json") {
      process.stdout.write(`${JSON.stringify({ fake: result.id, calls: result.calls.length, differing: differing.length, results: result.calls }, null, 2)}\n`);
    } else if (differing.length === 0) {
      process.stdout.write(`✓ ${result.id}: ${result.calls.length} calls, every answer the same as the real server's${ignoredText(result.calls)}\n`);
    } else {
      const lines = differing.map(
        ({ call, real, fake, differences, ignored }) =>
          `✗ ${call.tool} ${JSON.stringify(call.args)} (${call.from}): ${differences.join("; ")}${ignored ? ` (ignored: ${ignored.join(", ")})` : ""}\n` +
          `  real: ${JSON.stringify(answerText(real))}\n  fake: ${JSON.stringify(answerText(fake))}\n`,
      );
      process.stdout.write(`${lines.join("")}${differing.length} of ${result.calls.length} calls answered differently by ${result.id}\n`);
    }
    if (differing.length > 0) process.exitCode = EXIT.invalid;
  },
});
