import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { isMap, parse, parseDocument, stringify } from "yaml";
import { captureMcpServer, type McpServerCapture } from "./mcp-server-capture.js";
import { mcpTarget } from "./mcp-target.js";
import { canonicalJson } from "../../core/record/index.js";

export interface McpCaptureOptions {
  /** The manifest (fakes.yaml) whose `servers.<id>` records the capture. */
  manifest: string;
  id: string;
  /** The real server's command line (stdio); the manifest's `capture.command` when neither is set. */
  command?: string;
  /** The real server's Streamable HTTP URL; the manifest's `capture.url` when neither is set. */
  url?: string;
  /** `Name: value` headers for the URL (never recorded in the manifest). */
  headers?: string[];
  /** Where the capture goes; the server's `captured` file, or `mcp/<id>/tools.json`. */
  out?: string;
  /** Write nothing; report each tool (and each part of the server's description) that changed. */
  check?: boolean;
  /** Read the server with this instead of connecting (tests). */
  read?: (target: ReturnType<typeof mcpTarget>) => Promise<McpServerCapture>;
}

export interface McpCaptureResult {
  file: string;
  tools: string[];
  /** With `check`: what differs from the committed capture (empty: nothing). */
  differing?: string[];
}

type Json = Record<string, unknown>;

/**
 * `eval-simulate capture <id> --mcp "<command>"`: reads a real MCP server (every page of
 * tools/list, its info, instructions, capabilities, protocol version, resources and prompts), writes it
 * to the fake's capture file and records where it came from in the manifest, keeping comments.
 * With `check`, writes nothing and names each tool that was added, removed or changed.
 *
 * @example await captureMcp({ manifest: "fakes.yaml", id: "memory", command: "npx -y @modelcontextprotocol/server-memory" });
 */
export async function captureMcp(options: McpCaptureOptions): Promise<McpCaptureResult> {
  const manifestFile = resolve(options.manifest);
  const dir = dirname(manifestFile);
  const doc = parseDocument(readFileSync(manifestFile, "utf8"));
  if (doc.errors.length > 0) throw new Error(`[eval-simulate] ${options.manifest} is not valid YAML: ${doc.errors[0].message}`);
  const server = ((doc.getIn(["servers", options.id]) as { toJSON?: () => Json } | undefined)?.toJSON?.() ?? {}) as Json;
  const recorded = (server.capture ?? {}) as { command?: string; url?: string };
  const given = options.command !== undefined || options.url !== undefined;
  const command = given ? options.command : recorded.command;
  const url = given ? options.url : recorded.url;
  if (command === undefined && url === undefined) {
    throw new Error(`[eval-simulate] name the real server with --mcp "<command>" or --mcp-url <url> (servers.${options.id}.capture is not set)`);
  }
  const target = mcpTarget({ command, url, headers: options.headers });
  const capture = await (options.read ?? captureMcpServer)(target);
  const capturedFile = typeof server.captured === "string" ? server.captured : undefined;
  const out = resolve(dir, options.out ?? capturedFile ?? `mcp/${options.id}/tools.json`);
  const tools = capture.tools.map((tool) => String(tool.name));

  if (options.check) {
    const committed = existsSync(out) ? (parse(readFileSync(out, "utf8")) as McpServerCapture) : undefined;
    return { file: out, tools, differing: committed ? captureChanges(committed, capture) : ["(no capture yet)"] };
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, /\.ya?ml$/.test(out) ? stringify(capture, { lineWidth: 0 }) : `${JSON.stringify(capture, null, 2)}\n`);
  if (!isMap(doc.get("servers"))) doc.set("servers", doc.createNode({}));
  if (!isMap(doc.getIn(["servers", options.id]))) doc.setIn(["servers", options.id], doc.createNode({ captured: relative(dir, out), tools: {} }));
  doc.setIn(["servers", options.id, "captured"], relative(dir, out));
  // Only what reaches the server is recorded: headers may hold tokens, so they stay off the page.
  doc.setIn(["servers", options.id, "capture"], doc.createNode(command !== undefined ? { command } : { url }));
  for (const path of [["servers"], ["servers", options.id], ["servers", options.id, "capture"]]) {
    const node = doc.getIn(path, true) as { flow?: boolean } | undefined;
    if (node && typeof node === "object") node.flow = false;
  }
  writeFileSync(manifestFile, doc.toString({ lineWidth: 0 }));
  return { file: out, tools };
}

/**
 * What differs between two captures: each tool added, removed or changed (by name), then the
 * server's info, instructions, capabilities, resources and prompts.
 *
 * @example captureChanges(before, after); // ['tool "search_nodes" changed', "instructions changed"]
 */
export function captureChanges(before: McpServerCapture, after: McpServerCapture): string[] {
  const changes: string[] = [];
  // Compared as JSON values: the real server's SDK may write a schema's keys in another order
  // (`description` before `type`) than the committed file holds, which changes nothing.
  const byName = (capture: McpServerCapture) => new Map(capture.tools.map((tool) => [String(tool.name), canonicalJson(tool)]));
  const old = byName(before);
  const fresh = byName(after);
  for (const [name, text] of fresh) {
    if (!old.has(name)) changes.push(`tool "${name}" added`);
    else if (old.get(name) !== text) changes.push(`tool "${name}" changed`);
  }
  for (const name of old.keys()) if (!fresh.has(name)) changes.push(`tool "${name}" removed`);
  if (changes.length === 0 && [...old.keys()].join("\n") !== [...fresh.keys()].join("\n")) changes.push("the tools' order changed");
  for (const key of ["serverInfo", "instructions", "capabilities", "protocolVersion", "resources", "resourceTemplates", "prompts"] as const) {
    if (canonicalJson(before[key]) !== canonicalJson(after[key])) changes.push(`${key} changed`);
  }
  return changes;
}
