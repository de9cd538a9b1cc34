/**
 * The port's defence against web pages: a page an agent's browser opens can send requests to
 * any address the machine reaches, and two headers give it away. A page of another site sends
 * its `Origin`; a page whose name was rebound to the fakes' address (DNS rebinding) sends that
 * name as `Host`. Every route of the port (the fakes, `/sessions`, the admin routes, the
 * inspector, `/health`) is behind both checks, in front of everything else, so neither a
 * session list nor a world's state reaches such a page, and nothing it sends runs.
 *
 * Clients that are not browsers (MCP clients, SDKs, an egress proxy) send no `Origin` and the
 * name they were given as `Host`, so they pass.
 */
import { hostname as machineName } from "node:os";
import { originCheck } from "../mcp/index.js";
import type { FetchHandler } from "../http/index.js";
import { refusalBody } from "../http/index.js";

/** Thrown at start-up for an allowed-host entry that is not a host name. */
export class AllowedHostError extends Error {
  override name = "AllowedHostError";
  readonly code = "E_ALLOWED_HOST";
}

/** A DNS name, each label letters, digits, `-` and `_`: no port, path, scheme or credentials. */
const HOST_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/i;
/** An IP literal as a browser writes it in `Host` (dotted quad, or IPv6 in brackets). */
const IP_LITERAL = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/;

/**
 * The allowed-host list from its entries: a host name (`fakes.internal`, any port), a name with a
 * leading dot (`.svc.example`: that name and every name below it), or `*` (the check off);
 * comma lists are split, blanks ignored. Throws `AllowedHostError` naming an entry it cannot read.
 *
 * @example parseAllowedHosts(["fakes.internal, .svc.example"]) // ["fakes.internal", ".svc.example"]
 */
export function parseAllowedHosts(entries: readonly string[]): string[] {
  const list = entries
    .flatMap((entry) => entry.split(","))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const entry of list) {
    if (entry !== "*" && !HOST_NAME.test(entry.startsWith(".") ? entry.slice(1) : entry)) {
      throw new AllowedHostError(
        `[eval-simulate] allowed host ${JSON.stringify(entry)} is not a host name: write a host name (any port), .name for it and every name below it, or *`,
      );
    }
  }
  return list;
}

/** What the guard lets through besides loopback names and IP literals. */
export interface BrowserGuardOptions {
  /** Browser origins served besides loopback ones and the port's own (see `parseAllowedOrigins`). */
  allowedOrigins?: readonly string[];
  /** Host names served besides the loopback ones (see `parseAllowedHosts`). */
  allowedHosts?: readonly string[];
  /** The real hosts whose traffic API fakes answer (their `hosts:`): routed by Host, so served. */
  apiHosts?: readonly string[];
  /** The address the port listens on: beyond loopback, the names the network gives it are served too. */
  bound?: string;
}

/** The host name of a `Host` value (an authority), lowercased, without its port or a final dot. */
function hostnameOf(authority: string): string {
  const lower = authority.toLowerCase();
  const colon = lower.startsWith("[") ? lower.indexOf("]") + 1 : lower.lastIndexOf(":");
  const name = colon > 0 ? lower.slice(0, colon) : lower;
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

/**
 * Whether a host name is one the port answers to. An IP literal always is: a rebound page is
 * addressed by a name, never by an address. `localhost` and `*.localhost` name loopback (RFC
 * 6761). When the port listens beyond loopback, names without a dot (a compose service, a
 * container, the machine's own name) are the local network's, which no outside page can rebind.
 */
function hostCheck(options: BrowserGuardOptions): ((name: string) => boolean) | undefined {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of parseAllowedHosts(options.allowedHosts ?? [])) {
    if (entry === "*") return undefined;
    if (entry.startsWith(".")) {
      exact.add(entry.slice(1).toLowerCase());
      suffixes.push(entry.toLowerCase());
    } else exact.add(entry.toLowerCase());
  }
  for (const host of options.apiHosts ?? []) exact.add(hostnameOf(host));
  // The bound address as `listen` takes it: IPv6 unbracketed (`::`), a wildcard for every interface.
  const raw = (options.bound ?? "127.0.0.1").toLowerCase();
  const bound = raw.includes(":") && !raw.startsWith("[") ? `[${raw}]` : raw;
  exact.add(bound);
  const beyondLoopback = !(bound === "localhost" || bound.startsWith("127.") || bound === "[::1]");
  if (beyondLoopback) exact.add(machineName().toLowerCase());
  return (name) =>
    exact.has(name) ||
    IP_LITERAL.test(name) ||
    name === "localhost" ||
    name.endsWith(".localhost") ||
    (beyondLoopback && name !== "" && !name.includes(".")) ||
    suffixes.some((suffix) => name.endsWith(suffix));
}

/** Header values are attacker-chosen: cut and strip controls before they reach a message. */
function printable(value: string): string {
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, "?");
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

function forbidden(request: Request, error: string, message: string): Response {
  const path = new URL(request.url).pathname;
  return new Response(JSON.stringify(refusalBody(path, error, message)), { status: 403, headers: { "content-type": "application/json" } });
}

/**
 * The host behind the Host and Origin checks: a `Host` the port does not answer to, or an
 * `Origin` that is neither loopback, allowed, nor the port's own, is answered 403 before the
 * request reaches any route (a JSON-RPC error on MCP paths, `{ error, message }` elsewhere).
 * Throws `AllowedHostError` or `AllowedOriginError` for an entry it cannot read.
 *
 * @example const fetch = browserGuard(routes, { allowedHosts: ["fakes.internal"], bound: "0.0.0.0" });
 */
export function browserGuard(host: FetchHandler, options: BrowserGuardOptions = {}): FetchHandler {
  const allowedName = hostCheck(options);
  const checkOrigin = originCheck(options.allowedOrigins);
  return async (request) => {
    // The adapter sets Host from the request target; an in-process request may carry none.
    const authority = request.headers.get("host") ?? new URL(request.url).host;
    const name = hostnameOf(authority);
    if (allowedName && !allowedName(name)) {
      return forbidden(
        request,
        "invalid_host",
        `Invalid Host: ${printable(name)} is not a name this server answers to (allow it with --allow-host or EVAL_SIMULATE_ALLOWED_HOSTS)`,
      );
    }
    const refused = checkOrigin(request);
    // The port's own pages count as its own origin only when their name passed a real check.
    if (refused && !(allowedName && sameHost(request.headers.get("origin") ?? "", name))) return forbidden(request, "invalid_origin", refused.message);
    return host(request);
  };
}

/** Whether an Origin names the host the request was sent to: a page of the port itself (the inspector). */
function sameHost(origin: string, name: string): boolean {
  try {
    const url = new URL(origin);
    return url.origin !== "null" && hostnameOf(url.host) === name;
  } catch {
    return false;
  }
}
