/**
 * One fake over stdio: the agent's JSON-RPC messages on stdin are sent on to the fake's own
 * Streamable HTTP endpoint in this process, and whatever the endpoint sends back (answers, log
 * and progress notifications, the server's questions, resource updates on the standing stream)
 * is written to stdout. The fake keeps its one state, journal and record; the client's answers to
 * elicitation and sampling travel back the same way, in the MCP session the bridge holds (stdio
 * is one connection, so `serve --stdio` serves its fake with sessions). Both SDK transports
 * keep their own bounds: a line on stdin is capped by the SDK's read buffer.
 */
import type { Readable, Writable } from "node:stream";

/** A running bridge. */
export interface StdioBridge {
  /** Resolves when stdin ends or either side closes. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Bridges stdio to the fake served at `url`.
 *
 * @example const bridge = await bridgeStdio(services.url("notes")); await bridge.closed;
 */
export async function bridgeStdio(url: string, options: { input?: Readable; output?: Writable; onerror?: (error: Error) => void } = {}): Promise<StdioBridge> {
  // The official client is an optional peer of this package: loaded only for --stdio.
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client").catch(() => {
    throw new Error("[eval-simulate] serve --stdio needs the official MCP client: npm install @modelcontextprotocol/client@2.4.0");
  });
  const { StdioServerTransport } = await import("@modelcontextprotocol/server/stdio");
  const stdio = new StdioServerTransport(options.input, options.output);
  const http = new StreamableHTTPClientTransport(new URL(url));
  let done: () => void = () => {};
  const closed = new Promise<void>((resolve) => (done = resolve));
  let closing: Promise<void> | undefined;
  let stopping = false;
  const close = (): Promise<void> => {
    // Each transport's close calls its onclose, which calls this again before `closing` is
    // assigned: the flag, set first, ends that loop (it overflowed the stack on every exit).
    if (stopping) return closing ?? Promise.resolve();
    stopping = true;
    closing = Promise.allSettled([http.close(), stdio.close()]).then(() => done());
    return closing;
  };
  // Once the agent has gone (stdin ended), the requests it left in flight are stopped on purpose:
  // their errors, and answers that can no longer be written, are no one's to read.
  const report = (error: Error): void => {
    if (!stopping) options.onerror?.(error);
  };
  stdio.onmessage = (message) => {
    const version = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta?.["io.modelcontextprotocol/protocolVersion"];
    if (typeof version === "string") http.setProtocolVersion(version);
    http.send(message).catch((error: Error) => {
      report(error);
      // A request the endpoint could not take still gets an answer, so the agent does not hang.
      const id = (message as { id?: string | number }).id;
      if (id !== undefined && "method" in message) {
        stdio.send({ jsonrpc: "2.0", id, error: { code: -32603, message: `[eval-simulate] the fake did not answer: ${error.message}` } }).catch(report);
      }
    });
  };
  http.onmessage = (message) => {
    // The 2025 handshake's answer names the version the later requests carry in a header.
    const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version === "string") http.setProtocolVersion(version);
    stdio.send(message).catch(report);
  };
  stdio.onerror = report;
  http.onerror = report;
  stdio.onclose = () => void close();
  http.onclose = () => void close();
  await http.start();
  await stdio.start();
  options.input?.once("end", () => void close());
  if (options.input === undefined) process.stdin.once("end", () => void close());
  return { closed, close };
}
