/**
 * Request bodies the node adapter has already read and parsed as JSON, by request. The MCP SDK
 * takes a parsed body as its "perf escape hatch": handing it over spares the SDK reading and
 * cloning the body stream again on every call.
 */
const parsed = new WeakMap<Request, unknown>();

/** Remembers a request's parsed JSON body. */
export function rememberParsedBody(request: Request, body: unknown): void {
  parsed.set(request, body);
}

/** The parsed JSON body of a request, when the adapter parsed one. */
export function parsedBodyOf(request: Request): { parsedBody: unknown } | undefined {
  return parsed.has(request) ? { parsedBody: parsed.get(request) } : undefined;
}
