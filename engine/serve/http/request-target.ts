/**
 * What a request line and its Host header name, checked before a web `Request` is built from
 * them: a malformed one is the client's mistake and gets the status HTTP gives it, never a 500.
 */

/** The methods a web `Request` cannot carry and no route of the host serves. */
const UNSERVED_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** The methods some route of the host serves, as `OPTIONS *` reports them. */
export const SERVED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

/** RFC 3986 `host [ ":" port ]` without userinfo: an IP literal or a reg-name, digits for the port. */
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d*)?$/;

/** Where a request goes, or why it is refused. */
export type RequestTarget =
  | { kind: "route"; url: string; host: string }
  | { kind: "server-options" }
  | { kind: "refused"; status: 400 | 501; error: string; message: string };

const refused = (status: 400 | 501, error: string, message: string): RequestTarget => ({ kind: "refused", status, error, message });

/** An authority the WHATWG URL parser accepts as a host with a port in range, and nothing else. */
function validAuthority(authority: string): boolean {
  if (!AUTHORITY.test(authority)) return false;
  try {
    const url = new URL(`http://${authority}/`);
    return url.pathname === "/" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/**
 * Reads a request's target the way RFC 9112 §3.2 says: origin-form (`/path?query`) under the
 * Host header, absolute-form (`http://host/path`) under its own authority (the Host header is
 * then ignored, as an origin server MUST), `OPTIONS *` about the server as a whole. More than one
 * Host, an invalid Host (a port out of range, spaces, userinfo, a path) or any other target is
 * 400; CONNECT, TRACE and TRACK are served for no resource, so 501.
 *
 * @example requestTarget("GET", "/health", ["127.0.0.1:7353"], "127.0.0.1:7353"); // { kind: "route", url: "http://127.0.0.1:7353/health", ... }
 */
export function requestTarget(method: string, target: string, hosts: readonly string[], fallbackHost: string): RequestTarget {
  if (UNSERVED_METHODS.has(method)) return refused(501, "not_implemented", `${method} is not served here`);
  if (hosts.length > 1) return refused(400, "bad_request", "more than one Host header");
  // HTTP/1.0 may omit Host, and a client whose target has no authority sends it empty.
  const host = hosts[0] === undefined || hosts[0] === "" ? fallbackHost : hosts[0];
  if (!validAuthority(host)) return refused(400, "bad_request", `invalid Host header "${host.slice(0, 100)}"`);
  if (target === "*") {
    return method === "OPTIONS" ? { kind: "server-options" } : refused(400, "bad_request", `the target "*" is only for OPTIONS, not ${method}`);
  }
  if (target.startsWith("/")) {
    // The path is appended to a checked authority, so nothing in it can change the host.
    const url = `http://${host}${target}`;
    if (!URL.canParse(url)) return refused(400, "bad_request", "invalid request target");
    return { kind: "route", url, host };
  }
  if (/^https?:\/\//i.test(target) && URL.canParse(target)) {
    const url = new URL(target);
    if (url.username !== "" || url.password !== "") return refused(400, "bad_request", "a request target must not carry credentials");
    if (!validAuthority(url.host)) return refused(400, "bad_request", "invalid authority in the request target");
    return { kind: "route", url: `http://${url.host}${url.pathname}${url.search}`, host: url.host };
  }
  return refused(400, "bad_request", "invalid request target: expected /path, http://host/path or * (OPTIONS)");
}
