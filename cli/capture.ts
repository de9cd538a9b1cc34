import { existsSync } from "node:fs";
import { relative } from "node:path";
import { type ArgsDef, defineCommand } from "citty";
import { capture } from "../engine/author/capture/index.js";
import { captureMcpCommand, isMcpServer } from "./capture-mcp.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { manifestArgs, manifestOf } from "./manifest-arg.js";

const args = {
  id: { type: "positional", required: true, description: "The api's or MCP server's id in the manifest", valueHint: "id" },
  ...manifestArgs("The manifest that records the capture"),
  mcp: { type: "string", description: 'A real MCP server to capture over stdio: "[NAME=value ...] <command> [args...]"' },
  "mcp-url": { type: "string", description: "A real MCP server to capture over Streamable HTTP" },
  header: { type: "string", description: 'A header for --mcp-url, "Name: value" (repeatable; never recorded in the manifest)' },
  spec: { type: "string", description: "The published OpenAPI description: a URL (pin it to a revision) or a file; default: the manifest's capture.source" },
  operations: { type: "string", description: 'Comma-separated "METHOD /path" or operationIds; default: the manifest\'s capture.operations' },
  out: { type: "string", description: "Where to write the trimmed document (default: the api's openapi, or api/<id>/openapi.yaml)" },
  check: { type: "boolean", description: "Write nothing; exit 1 naming each operation that differs from the committed document" },
} satisfies ArgsDef;

/** `eval-simulate capture <id>`: trim a published OpenAPI description to the operations used. */
export default defineCommand({
  meta: {
    name: "capture",
    description:
      "Capture a real MCP server (--mcp, --mcp-url) or trim a published OpenAPI description to the operations a Recipe uses, and record the capture in the manifest.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    const manifest = manifestOf("capture", parsed, 1);
    if (manifest === undefined) return;
    if (!existsSync(manifest)) {
      process.stderr.write(
        `eval-simulate capture: cannot read ${manifest}: it does not exist (capture records into a manifest: eval-simulate init writes one)\n`,
      );
      process.exitCode = EXIT.usage;
      return;
    }
    if (parsed.mcp !== undefined || parsed["mcp-url"] !== undefined || isMcpServer(manifest, parsed.id)) {
      await captureMcpCommand({ ...parsed, manifest }, rawArgs);
      return;
    }
    const operations = parsed.operations
      ?.split(",")
      .map((op) => op.trim())
      .filter(Boolean);
    let result: Awaited<ReturnType<typeof capture>>;
    try {
      result = await capture({ manifest, id: parsed.id, spec: parsed.spec, operations, out: parsed.out, check: parsed.check });
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const file = relative(process.cwd(), result.file);
    if (result.differing === undefined) {
      process.stdout.write(`wrote ${file}: ${result.operations.length} operations; recorded the capture in ${manifest}\n`);
    } else if (result.differing.length === 0) {
      process.stdout.write(`✓ ${file} is what a fresh capture writes\n`);
    } else {
      process.stdout.write(`✗ ${file} differs from a fresh capture in:\n${result.differing.map((op) => `  ${op}\n`).join("")}`);
      process.exitCode = EXIT.invalid;
    }
  },
});
