/**
 * Puts a fetch function on a real port with node:http, through the MCP SDK's own Node adapter
 * (`toNodeHandler`): it turns the Node request into a `Request` whose signal aborts when the
 * client disconnects, bounds the body it buffers, and streams SSE answers with backpressure.
 *
 * The adapter's own answers are JSON-RPC shaped (413 for a body over the bound, 500 when the
 * handler throws), and a response's several Set-Cookie headers reach the client as one: right
 * for MCP, to keep in mind if non-MCP routes share the port.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from "./mcp-endpoint.js";

/** A fetch-style handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Where and how to listen. */
export interface ListenOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** 127.0.0.1 by default; 0.0.0.0 for a sidecar. */
  host?: string;
  /** Bytes the adapter buffers per request body before answering 413; 1 MiB by default. */
  maxRequestBodySize?: number;
  /** Told when the handler throws (the client gets a 500). */
  onerror?: (error: Error) => void;
}

/** A listening server. */
export interface Listening {
  /** `http://host:port`, without a trailing slash. */
  url: string;
  port: number;
  host: string;
  server: Server;
  /** Stops accepting, drops open connections (keep-alive and streams) and waits for the close. */
  close(): Promise<void>;
}

/**
 * Serves `handler` on a port until `close()`.
 *
 * @example
 * const endpoint = createMcpEndpoint(fake);
 * const served = await listen(endpoint.fetch, { port: 0 });
 * new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`));
 */
export async function listen(handler: FetchHandler, options: ListenOptions = {}): Promise<Listening> {
  const host = options.host ?? "127.0.0.1";
  const nodeHandler = toNodeHandler(
    { fetch: (request) => handler(request) },
    {
      maxRequestBodySize: options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE,
      ...(options.onerror !== undefined && { onerror: options.onerror }),
    },
  );
  const server = createServer((req, res) => {
    // toNodeHandler answers its own failures; a rejection here would only be a write to a
    // socket that is already gone.
    nodeHandler(req, res).catch(() => res.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;

  return {
    url: `http://${shownHost}:${port}`,
    port,
    host,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle keep-alive sockets and open SSE streams would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
