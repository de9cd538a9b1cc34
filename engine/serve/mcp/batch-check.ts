/**
 * JSON-RPC batches on a fake's endpoint. MCP 2025-03-26 let a POST body be an array of messages;
 * 2025-06-18 removed batching, and 2025-11-25 and 2026-07-28 say the body MUST be a single
 * message. The SDK still serves arrays on its 2025-era path and runs their requests side by side,
 * correlating answers by id: two requests sharing an id both run (a write commits) and one answer
 * is lost, so the record and the client disagree.
 *
 * So a batch is served only where the protocol has them (a client that sends no
 * `MCP-Protocol-Version`, which the spec says means 2025-03-26, or sends that version), and only
 * when it holds at least one message and no two requests share an id. Anything else is refused
 * whole, before any of it runs: HTTP 400 with JSON-RPC -32600 Invalid Request, as the SDK refuses
 * an oversized batch.
 */

import type { Refusal } from "./origin-check.js";

/** The one revision whose POST bodies may be batches. */
const BATCHING_REVISION = "2025-03-26";

/**
 * Why a parsed POST body may not be served as a batch (a 400), or undefined to go on.
 *
 * @example batchRefusal([{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", id: 1, method: "ping" }], null) // { status: 400, code: -32600, … }
 */
export function batchRefusal(body: unknown, protocolVersion: string | null): Refusal | undefined {
  if (!Array.isArray(body)) return undefined;
  if (protocolVersion !== null && protocolVersion !== BATCHING_REVISION) {
    const version = /^[\w.-]{1,40}$/.test(protocolVersion) ? protocolVersion : "this revision";
    return invalidRequest(`Invalid Request: JSON-RPC batches are not part of MCP ${version} (removed in 2025-06-18); send one message per POST`);
  }
  if (body.length === 0) return invalidRequest("Invalid Request: an empty batch");
  const seen = new Set<string>();
  for (const message of body) {
    if (typeof message !== "object" || message === null || typeof (message as { method?: unknown }).method !== "string") continue;
    const id = (message as { id?: unknown }).id;
    if (typeof id !== "string" && typeof id !== "number") continue;
    // JSON-RPC ids 1 and "1" are different ids; 1 and 1.0 are the same number.
    const key = `${typeof id}:${String(id)}`;
    if (seen.has(key)) {
      const shown = typeof id === "string" && id.length > 64 ? `${JSON.stringify(id.slice(0, 64))}…` : JSON.stringify(id);
      return invalidRequest(`Invalid Request: the batch uses id ${shown} for more than one request; nothing in it was run`);
    }
    seen.add(key);
  }
  return undefined;
}

function invalidRequest(message: string): Refusal {
  return { status: 400, code: -32600, message };
}
