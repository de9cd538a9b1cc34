/**
 * What a handler says to the client while its call runs, and what it asks: log messages,
 * progress, elicitation and sampling. The transport (the MCP endpoint, stdio) supplies the
 * channel; the runtime keeps every exchange for the journal and the record, bounded.
 */
import { type ElicitAnswer, type LogLevel, ToolFailure } from "../../author/handlers/index.js";
import type { HandlerClient } from "./tool-context.js";

/** The client of one call, as the transport reaches it. */
export interface ClientChannel {
  /** The fake declares logging: `ctx.log` is sent as well as journaled. */
  readonly logging: boolean;
  /** Sends `notifications/message` (the transport filters by the client's level). */
  log(level: LogLevel, data: unknown): Promise<void>;
  /** Sends `notifications/progress` when the request carried a progress token; otherwise nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** `elicitation/create`; throws when this client cannot be asked. */
  elicit(params: Record<string, unknown>, signal: AbortSignal): Promise<ElicitAnswer>;
  /** `sampling/createMessage`; throws when this client cannot be asked. */
  sample(params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/** One exchange with the client during a call, as the journal and the record keep it. */
export interface Exchange {
  /** The MCP method: `notifications/message`, `notifications/progress`, `elicitation/create`, `sampling/createMessage`. */
  method: string;
  params: unknown;
  /** The client's answer to a request. */
  answer?: unknown;
  /** Why a request got no answer. */
  error?: string;
}

/** At most this many exchanges are kept per call; later ones are still sent, and counted. */
export const MAX_EXCHANGES = 200;

/**
 * The channel a handler's context uses: sends through `channel` (when the transport has one)
 * and keeps each exchange in `exchanges`. Without a channel, log and progress are only kept,
 * and asking the client is a tool error that names why.
 *
 * @example const ctx = recordingChannel(extra.client, exchanges); await ctx.progress(50, 100);
 */
export function recordingChannel(channel: ClientChannel | undefined, exchanges: Exchange[], signal: AbortSignal): HandlerClient {
  let dropped = 0;
  const keep = (exchange: Exchange): Exchange => {
    if (exchanges.length < MAX_EXCHANGES) exchanges.push(exchange);
    else if (++dropped === 1) exchanges.push({ method: "eval-simulate/dropped", params: `exchanges past ${MAX_EXCHANGES} were sent but not kept` });
    return exchange;
  };
  const ask = async <T>(
    method: string,
    params: Record<string, unknown>,
    send: ((p: Record<string, unknown>, s: AbortSignal) => Promise<T>) | undefined,
  ): Promise<T> => {
    const exchange = keep({ method, params });
    if (send === undefined) {
      exchange.error = "this client cannot be asked: serve the fake over stdio, or declare it with `sessions: true` for 2025-era clients";
      throw new ToolFailure(`[eval-simulate] ${method}: ${exchange.error}`);
    }
    try {
      const answer = await send(params, signal);
      exchange.answer = answer;
      return answer;
    } catch (error) {
      exchange.error = error instanceof Error ? error.message : String(error);
      throw new ToolFailure(`[eval-simulate] ${method} got no answer from the client: ${exchange.error}`);
    }
  };
  return {
    log(level, data) {
      if (!channel?.logging) return;
      keep({ method: "notifications/message", params: { level, data } });
      // A client that went away cannot be told; the call's own result says what happened.
      channel?.log(level, data).catch(() => {});
    },
    async progress(progress, total, message) {
      if (typeof progress !== "number" || !Number.isFinite(progress)) throw new ToolFailure("[eval-simulate] ctx.progress needs a finite number");
      keep({ method: "notifications/progress", params: { progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) } });
      await channel?.progress(progress, total, message).catch(() => {});
    },
    elicit: (params) => ask("elicitation/create", params, channel && ((p, s) => channel.elicit(p, s))),
    sample: (params) => ask("sampling/createMessage", params, channel && ((p, s) => channel.sample(p, s))),
  };
}
