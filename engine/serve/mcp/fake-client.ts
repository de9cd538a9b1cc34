/**
 * The client of one request, as a handler reaches it: log messages through the SDK (filtered by
 * the level the client set), progress on the request's own stream when it carried a progress
 * token, and elicitation and sampling as requests related to the call, so they travel on its
 * stream and the answer comes back to this server. Asking is offered only where the protocol
 * lets the answer find its way back: a 2025-era session (or stdio), never the stateless fallback
 * or a 2026-07-28 request (which asks through `input_required` results instead).
 */
import type { ServerContext } from "@modelcontextprotocol/server";
import type { McpClient, McpFakeRuntime } from "./fake-runtime.js";

/**
 * The client of the request `ctx` serves.
 *
 * @example const client = clientOf(fake, ctx, true); await client.progress(50, 100);
 */
export function clientOf(fake: Pick<McpFakeRuntime, "id" | "logging">, ctx: ServerContext, canAsk: boolean): McpClient {
  const token = ctx.mcpReq._meta?.progressToken;
  const logging = fake.logging === true;
  return {
    logging,
    log: (level, data) => (logging ? ctx.mcpReq.log(level, data, fake.id) : Promise.resolve()),
    progress: (progress, total, message) =>
      token === undefined
        ? Promise.resolve()
        : ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken: token, progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) },
          }),
    ...(canAsk && {
      elicit: (params, signal) => ctx.mcpReq.send({ method: "elicitation/create", params }, { signal }) as never,
      sample: (params, signal) => ctx.mcpReq.send({ method: "sampling/createMessage", params }, { signal }) as never,
    }),
  };
}
