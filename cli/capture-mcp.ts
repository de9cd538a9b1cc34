import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { parseDocument } from "yaml";
import { captureMcp } from "../engine/author/capture/index.js";
import { EXIT } from "./exit-codes.js";
import { repeatedFlag } from "./repeated-flag.js";

/** Whether the manifest's `servers.<id>` exists (its capture is re-read with no flags). */
export function isMcpServer(manifest: string, id: string): boolean {
  if (!existsSync(manifest)) return false;
  return parseDocument(readFileSync(manifest, "utf8")).hasIn(["servers", id]);
}

/** `eval-simulate capture <id> --mcp "<command>" | --mcp-url <url> [--header K:V] [--check]`. */
export async function captureMcpCommand(
  parsed: { id: string; manifest: string; mcp?: string; "mcp-url"?: string; out?: string; check?: boolean },
  rawArgs: string[],
): Promise<void> {
  const { manifest } = parsed;
  let result: Awaited<ReturnType<typeof captureMcp>>;
  try {
    result = await captureMcp({
      manifest,
      id: parsed.id,
      command: parsed.mcp,
      url: parsed["mcp-url"],
      headers: repeatedFlag(rawArgs, "header"),
      out: parsed.out,
      check: parsed.check,
    });
  } catch (error) {
    process.stderr.write(`eval-simulate: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
    process.exitCode = EXIT.usage;
    return;
  }
  const file = relative(process.cwd(), result.file);
  if (result.differing === undefined) {
    process.stdout.write(`wrote ${file}: ${result.tools.length} tools; recorded the capture in ${manifest}\n`);
  } else if (result.differing.length === 0) {
    process.stdout.write(`✓ ${file} is what the real server serves now\n`);
  } else {
    process.stdout.write(`✗ ${file} differs from the real server:\n${result.differing.map((change) => `  ${change}\n`).join("")}`);
    process.exitCode = EXIT.invalid;
  }
}
