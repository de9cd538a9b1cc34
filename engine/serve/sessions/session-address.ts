/** The header that picks a session for traffic addressed by Host (an egress proxy's), lowercased. */
export const SESSION_HEADER = "evalsimulate-session";

/** What a session id may be: letters, digits, `_`, `-` and `.`, up to 64, not starting with a dot or dash. */
export const SESSION_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

/**
 * What stands between a session's id and its secret in its address (`<sid>~<secret>`): outside
 * SESSION_ID, so an address reads one way only.
 */
export const SECRET_SEPARATOR = "~";

/**
 * An address split into the session id and the secret it carries (none for a bare id).
 *
 * @example splitAddress("t1~k3y") // { sid: "t1", secret: "k3y" }
 */
export function splitAddress(address: string): { sid: string; secret?: string } {
  const at = address.indexOf(SECRET_SEPARATOR);
  return at < 0 ? { sid: address } : { sid: address.slice(0, at), secret: address.slice(at + 1) };
}

/**
 * The session address a request carries: `/s/<address>/...` in its path, else the
 * `EvalSimulate-Session` header; undefined for the process's own world. An address is a
 * session's id, or `<sid>~<secret>` for a session made with a secret. Read from the URL string
 * without parsing it, since every call of every fake asks. `byPath` is false when a fake is
 * named `s`: its own paths win, and sessions are picked by header only.
 *
 * @example sessionIdOf(new Request("http://h/s/t1/crm/mcp")) // "t1"
 */
export function sessionIdOf(request: Request, byPath = true): string | undefined {
  return (byPath ? sessionPath(request.url)?.sid : undefined) ?? (request.headers.get(SESSION_HEADER) || undefined);
}

/** `/s/<address>/<rest>` split into the address (as `sid`), its prefix and the rest of the path. */
export function sessionPath(url: string): { sid: string; prefix: string; rest: string } | undefined {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0 || !url.startsWith("/s/", start)) return undefined;
  const end = url.indexOf("/", start + 3);
  const stop = end < 0 ? firstOf(url, start + 3) : end;
  const sid = decoded(url.slice(start + 3, stop));
  if (sid === "") return undefined;
  const tail = end < 0 ? "" : url.slice(end);
  const query = tail.search(/[?#]/);
  return { sid, prefix: url.slice(start, stop), rest: query < 0 ? tail || "/" : tail.slice(0, query) || "/" };
}

function firstOf(url: string, from: number): number {
  const found = url.slice(from).search(/[?#]/);
  return found < 0 ? url.length : from + found;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
