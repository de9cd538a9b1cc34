/**
 * `resources/subscribe` and `resources/unsubscribe` of one session's server, and
 * `notifications/resources/updated` sent when a commit changes what a subscribed URI reads:
 * after each commit in the session's world, every subscribed URI is read again and compared with
 * what it read before, one check at a time, and at most one waiting (however many commits land
 * while one reads). At most 100 URIs per session.
 */
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { mcpSdk } from "../../author/contract/index.js";
import type { McpFakeRuntime } from "./fake-runtime.js";

/** Subscriptions a session may hold at once. */
export const MAX_SUBSCRIPTIONS = 100;

/**
 * Registers the subscribe and unsubscribe handlers on `server`; its `close` ends the watch.
 *
 * @example subscribeHandlers(fake, server);
 */
export function subscribeHandlers(fake: McpFakeRuntime, server: Server): void {
  const read = fake.readResource;
  if (read === undefined) return;
  const subscribed = new Map<string, string | undefined>();
  let unwatch: (() => void) | undefined;
  let checking = Promise.resolve();
  const reading = async (uri: string, request: Request | undefined): Promise<string | undefined> => {
    try {
      const contents = await read(uri, { signal: AbortSignal.timeout(30_000), ...(request && { request }) });
      return JSON.stringify(contents ?? null);
    } catch {
      return undefined;
    }
  };
  // One check waiting at most: the commits that land while one reads are all seen by the next.
  let queued = false;
  const check = (request: Request | undefined): void => {
    if (queued) return;
    queued = true;
    checking = checking.then(async () => {
      queued = false;
      for (const [uri, before] of subscribed) {
        const now = await reading(uri, request);
        if (!subscribed.has(uri) || now === before) continue;
        subscribed.set(uri, now);
        await server.sendResourceUpdated({ uri }).catch(() => {});
      }
    });
  };
  server.setRequestHandler("resources/subscribe", async (request, ctx: ServerContext) => {
    const { uri } = request.params;
    if (!subscribed.has(uri) && subscribed.size >= MAX_SUBSCRIPTIONS) {
      const { ProtocolError, ProtocolErrorCode } = mcpSdk();
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Too many subscriptions: a session holds at most ${MAX_SUBSCRIPTIONS}`);
    }
    const http = ctx.http?.req;
    subscribed.set(uri, await reading(uri, http));
    unwatch ??= fake.watch?.(http, () => check(http));
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", (request) => {
    subscribed.delete(request.params.uri);
    if (subscribed.size === 0) {
      unwatch?.();
      unwatch = undefined;
    }
    return {};
  });
  const previous = server.onclose;
  server.onclose = () => {
    unwatch?.();
    unwatch = undefined;
    previous?.();
  };
}
