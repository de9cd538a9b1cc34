import { commandWords, type McpServerTarget } from "./mcp-server-capture.js";

/**
 * A real MCP server named on the command line: a command (its leading `NAME=value` words set
 * environment variables, as a shell would) or a Streamable HTTP URL with `K:V` headers.
 *
 * @example mcpTarget({ command: "MEMORY_FILE_PATH=/tmp/m.jsonl node server.js" }); // { command: ["node", "server.js"], env: { MEMORY_FILE_PATH: "/tmp/m.jsonl" } }
 */
export function mcpTarget(options: { command?: string; url?: string; headers?: string[] }): McpServerTarget {
  if (options.url !== undefined) {
    const headers: Record<string, string> = {};
    for (const header of options.headers ?? []) {
      const colon = header.indexOf(":");
      if (colon <= 0) throw new Error(`[eval-simulate] a header is "Name: value", not ${JSON.stringify(header)}`);
      headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    }
    return { url: options.url, headers };
  }
  if (options.command === undefined) throw new Error("[eval-simulate] name the real server with a command or a URL");
  const words = commandWords(options.command);
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) {
    const word = words.shift() as string;
    const eq = word.indexOf("=");
    env[word.slice(0, eq)] = word.slice(eq + 1);
  }
  if (words.length === 0) throw new Error(`[eval-simulate] the command ${JSON.stringify(options.command)} names no program`);
  return Object.keys(env).length > 0 ? { command: words, env } : { command: words };
}
