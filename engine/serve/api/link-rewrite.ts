/**
 * Links in answers lead back to whichever base the client used: an absolute URL on one of the
 * real API's origins (its servers' and its hosts') is rewritten onto the client's, in response
 * bodies and headers (`Location`, `Link`, Graph's `@odata.nextLink`).
 */

/** Rewrites absolute URLs from the real API's origins to the client's. */
export type LinkRewriter = (text: string) => string;

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A rewriter from the real origins (`https://api.github.com`) to the client's base (origin and
 * path prefix, `http://127.0.0.1:7353/github`). An origin is only replaced where a URL starts:
 * at the start of the text or after a character that cannot be part of a URL, and when what
 * follows ends the origin (`/`, `?`, `#`, the end, or such a character).
 *
 * @example
 * const rewrite = linkRewriter(["https://api.github.com"], "http://127.0.0.1:7353/github");
 * rewrite('<https://api.github.com/repositories/1/issues?page=2>; rel="next"');
 * // '<http://127.0.0.1:7353/github/repositories/1/issues?page=2>; rel="next"'
 */
export function linkRewriter(realOrigins: readonly string[], clientBase: string): LinkRewriter {
  const origins = realOrigins.filter((origin) => origin.toLowerCase() !== clientBase.toLowerCase());
  if (origins.length === 0) return (text) => text;
  const pattern = new RegExp(`(^|[\\s<>"'(),;=])(${origins.map(escapeRegex).join("|")})(?=$|[/?#\\s<>"'),;])`, "gi");
  return (text) => (text.includes("://") ? text.replace(pattern, (_, before: string) => before + clientBase) : text);
}

/**
 * A copy of a JSON value with every string's links rewritten (object keys are left alone).
 *
 * @example rewriteLinks({ "@odata.nextLink": "https://graph.microsoft.com/v1.0/me/messages?$skip=10" }, rewrite);
 */
export function rewriteLinks(value: unknown, rewrite: LinkRewriter): unknown {
  if (typeof value === "string") return rewrite(value);
  if (Array.isArray(value)) return value.map((item) => rewriteLinks(item, rewrite));
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(copy, key, { value: rewriteLinks(item, rewrite), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  }
  return value;
}
