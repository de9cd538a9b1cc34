/**
 * What a real MCP server says about itself, read with the official client (an optional peer
 * dependency, loaded only here): every page of `tools/list`, its name and version, instructions,
 * capabilities and the protocol version it speaks.
 */

/** A real server's self-description, as a capture file holds it. */
export interface McpServerCapture {
  tools: Array<Record<string, unknown>>;
  serverInfo?: { name: string; version: string; [key: string]: unknown };
  instructions?: string;
  capabilities?: Record<string, unknown>;
  protocolVersion?: string;
  /** Every page of `resources/list`, when the server declares the resources capability. */
  resources?: Array<Record<string, unknown>>;
  /** Every page of `resources/templates/list`, likewise. */
  resourceTemplates?: Array<Record<string, unknown>>;
  /** Every page of `prompts/list`, when the server declares the prompts capability. */
  prompts?: Array<Record<string, unknown>>;
}

/** How to reach the real server: a command run over stdio, or a Streamable HTTP URL. */
export type McpServerTarget = { command: string[]; env?: Record<string, string>; cwd?: string } | { url: string; headers?: Record<string, string> };

/**
 * Splits a command line into words as a shell would for plain quoting (`'…'`, `"…"`, `\`), so
 * `--mcp "npx -y @scope/server --root '/tmp/a b'"` needs no shell.
 *
 * @example commandWords(`node server.js --name "a b"`); // ["node", "server.js", "--name", "a b"]
 */
export function commandWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word = (word ?? "") + line[++i];
      else word = (word ?? "") + c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (quote) throw new Error(`[eval-simulate] unterminated ${quote} in the command ${line}`);
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * The official client connected to a real MCP server (an optional peer, loaded here). A stdio
 * server's stderr is ignored; closing the client ends its process.
 *
 * @example const { client } = await connectMcpTarget({ command: ["node", "server.js"] });
 */
export async function connectMcpTarget(target: McpServerTarget, options: { name?: string; timeoutMs?: number } = {}) {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client").catch(() => {
    throw new Error("[eval-simulate] reading a real MCP server needs @modelcontextprotocol/client: npm install --save-dev @modelcontextprotocol/client");
  });
  const client = new Client({ name: options.name ?? "eval-simulate", version: "1.0.0" });
  let transport;
  if ("url" in target) {
    transport = new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.headers ?? {} } });
  } else {
    const { StdioClientTransport, getDefaultEnvironment } = await import("@modelcontextprotocol/client/stdio");
    const [command, ...args] = target.command;
    if (command === undefined) throw new Error("[eval-simulate] the MCP server's command is empty");
    transport = new StdioClientTransport({ command, args, cwd: target.cwd, env: { ...getDefaultEnvironment(), ...target.env }, stderr: "ignore" });
  }
  await client.connect(transport, { timeout: options.timeoutMs ?? 60_000 });
  return { client, transport };
}

/**
 * Connects to a real MCP server and reads what it serves: every page of `tools/list` (a server
 * that keeps answering the same cursor is stopped after 1,000 pages), then disconnects (a
 * stdio server's process is ended).
 *
 * @example const capture = await captureMcpServer({ command: ["npx", "-y", "@modelcontextprotocol/server-memory"] });
 */
export async function captureMcpServer(target: McpServerTarget, options: { timeoutMs?: number } = {}): Promise<McpServerCapture> {
  const { client, transport } = await connectMcpTarget(target, { name: "eval-simulate-capture", timeoutMs: options.timeoutMs });
  const timeout = options.timeoutMs ?? 60_000;
  /** Every page of a list, stopped after 1,000 pages (a server that repeats its cursor). */
  const allPages = async (list: (cursor?: string) => Promise<Record<string, unknown>>, key: string): Promise<Array<Record<string, unknown>>> => {
    const items: Array<Record<string, unknown>> = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const result = await list(cursor);
      items.push(...((result[key] as Array<Record<string, unknown>> | undefined) ?? []));
      cursor = result.nextCursor as string | undefined;
      if (cursor === undefined) break;
    }
    return items;
  };
  try {
    const tools: Array<Record<string, unknown>> = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
      tools.push(...(result.tools as Array<Record<string, unknown>>));
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    const capture: McpServerCapture = { tools };
    const info = client.getServerVersion();
    if (info) capture.serverInfo = info as McpServerCapture["serverInfo"];
    const instructions = client.getInstructions();
    if (instructions !== undefined) capture.instructions = instructions;
    const capabilities = client.getServerCapabilities();
    if (capabilities) capture.capabilities = capabilities as Record<string, unknown>;
    const version = client.getNegotiatedProtocolVersion?.() ?? (transport as { protocolVersion?: string }).protocolVersion;
    if (version) capture.protocolVersion = version;
    if (capabilities?.resources) {
      capture.resources = await allPages((cursor) => client.listResources(cursor === undefined ? {} : { cursor }, { timeout }), "resources");
      capture.resourceTemplates = await allPages(
        (cursor) => client.listResourceTemplates(cursor === undefined ? {} : { cursor }, { timeout }),
        "resourceTemplates",
      );
    }
    if (capabilities?.prompts) {
      capture.prompts = await allPages((cursor) => client.listPrompts(cursor === undefined ? {} : { cursor }, { timeout }), "prompts");
    }
    return capture;
  } finally {
    await client.close().catch(() => undefined);
  }
}
