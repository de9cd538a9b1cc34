/**
 * A request's target as its client sent it. A web `Request` resolves `.` and `..` segments in
 * its URL, so a path that climbed out of a session's `/s/<address>/` prefix no longer shows the
 * prefix it carried; the raw target does, and a trespass can be told to the session it came from.
 */
const targets = new WeakMap<Request, string>();

/**
 * Keeps `url` (`http://<host><target as sent>`) as the raw target of `request`.
 *
 * @example rememberRawTarget(request, `http://${host}${req.url}`);
 */
export function rememberRawTarget(request: Request, url: string): void {
  targets.set(request, url);
}

/** The raw target kept for `request`, or undefined (a request made in-process). */
export function rawTargetOf(request: Request): string | undefined {
  return targets.get(request);
}
