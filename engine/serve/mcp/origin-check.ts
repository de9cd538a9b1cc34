/**
 * The Streamable HTTP transport's DNS-rebinding defence: "Servers MUST validate the Origin header
 * on all incoming connections" and answer 403 when it is present and not allowed. A web page an
 * agent's browser tool opens could otherwise call a fake on the evaluation's network through a
 * rebound host name and change the world the agent is judged on.
 *
 * Requests without an Origin pass: MCP clients that are not browsers do not send one. Loopback
 * origins (localhost, 127.0.0.1, [::1], any scheme and port) always pass. Anything else passes
 * only when listed: a full origin (`https://app.example.com:8443`, matched exactly), a host name
 * (`app.example.com`, any scheme and port, the SDK's convention), or `*` (every origin: the check
 * is off). A present Origin that is not an origin (`null`, garbage) is refused.
 */

/** The host names every fake accepts as an Origin, as the SDK's `localhostAllowedOrigins`. */
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** Why a request is refused before it reaches the SDK: an HTTP status and a JSON-RPC error. */
export interface Refusal {
  status: number;
  code: number;
  message: string;
}

/** The refusal of a request whose Origin is not allowed (403), or undefined to go on. */
export type OriginCheck = (request: Request) => Refusal | undefined;

/** Thrown at start-up for an allow-list entry that is neither an origin nor a host name. */
export class AllowedOriginError extends Error {
  override name = "AllowedOriginError";
  readonly code = "E_ALLOWED_ORIGIN";
}

/**
 * The allow-list from its entries: each a full origin, a host name or `*`; comma lists are
 * split, blanks ignored. Throws `AllowedOriginError` naming an entry it cannot read.
 *
 * @example parseAllowedOrigins(["https://app.example.com, tools.example.com"]) // ["https://app.example.com", "tools.example.com"]
 */
export function parseAllowedOrigins(entries: readonly string[]): string[] {
  const list = entries
    .flatMap((entry) => entry.split(","))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const entry of list) readEntry(entry);
  return list;
}

/**
 * A check over the loopback origins and `allowed` (see `parseAllowedOrigins`), refusing as the
 * SDK's own Origin guard does: 403 with a JSON-RPC error -32000.
 *
 * @example
 * const check = originCheck(["https://app.example.com"]);
 * check(request); // { status: 403, code: -32000, message: "Invalid Origin: https://evil.example is not allowed …" }
 */
export function originCheck(allowed: readonly string[] = []): OriginCheck {
  const hosts = new Set(LOOPBACK);
  const origins = new Set<string>();
  for (const entry of parseAllowedOrigins(allowed)) {
    const read = readEntry(entry);
    if (read.kind === "any") return () => undefined;
    (read.kind === "host" ? hosts : origins).add(read.value);
  }
  return (request) => {
    const header = request.headers.get("origin");
    if (header === null || header === "") return undefined;
    const origin = parseOrigin(header);
    if (origin === undefined) return forbidden(`Invalid Origin header: ${printable(header)}`);
    if (hosts.has(origin.hostname) || origins.has(origin.origin)) return undefined;
    return forbidden(`Invalid Origin: ${origin.origin} is not allowed (allow it with --allow-origin or EVAL_SIMULATE_ALLOWED_ORIGINS)`);
  };
}

function readEntry(entry: string): { kind: "any" } | { kind: "host" | "origin"; value: string } {
  if (entry === "*") return { kind: "any" };
  if (entry.includes("://")) {
    const origin = parseOrigin(entry);
    // A path, query or credentials would be silently dropped by URL.origin: refuse them instead.
    if (origin === undefined || origin.origin !== new URL(entry).href.replace(/\/$/, "")) {
      throw new AllowedOriginError(`[eval-simulate] allowed origin ${JSON.stringify(entry)} is not an origin: write scheme://host[:port], a host name, or *`);
    }
    return { kind: "origin", value: origin.origin };
  }
  // A host name alone: no port, path or credentials (IPv6 in brackets, as URLs write it).
  const bracketed = /^\[[0-9a-f:.]+\]$/i.test(entry);
  let url: URL | undefined;
  try {
    url = bracketed || !/[/?#@:\\\s]/.test(entry) ? new URL(`http://${entry}`) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined) {
    throw new AllowedOriginError(
      `[eval-simulate] allowed origin ${JSON.stringify(entry)} is not a host name: write a host name (any port), scheme://host:port (that port only), or *`,
    );
  }
  return { kind: "host", value: url.hostname };
}

/** The origin and host name of an Origin value, or undefined when it is not one. */
function parseOrigin(value: string): { origin: string; hostname: string } | undefined {
  try {
    const url = new URL(value);
    // Opaque origins (`null`, `file:`, `data:`) have no host to allow.
    if (url.hostname === "" || url.origin === "null") return undefined;
    return { origin: url.origin, hostname: url.hostname };
  } catch {
    return undefined;
  }
}

/** Header values are attacker-chosen: cut and strip controls before they reach a message. */
function printable(value: string): string {
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, "?");
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

function forbidden(message: string): Refusal {
  return { status: 403, code: -32000, message };
}
