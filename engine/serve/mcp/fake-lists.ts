/**
 * The lists a fake serves (tools, prompts, resources, resource templates), built once as frozen
 * results, one per page when the fake declares a `pageSize`. A cursor is the page's position,
 * opaque to the client; one this server never issued is -32602, as the spec asks, never the first
 * page again.
 */
import type { ProtocolError } from "@modelcontextprotocol/server";
import { mcpSdk } from "../../author/contract/index.js";

/** One list, paged: the result for a request's cursor. */
export type PagedList = (cursor: string | undefined) => Record<string, unknown>;

/**
 * A list's results, built once: `key` names the array in each result (`tools`, `prompts`, ...).
 *
 * @example const list = pagedList("tools", tools, 50); list(undefined); // { tools: [...50], nextCursor: "..." }
 */
export function pagedList(key: string, items: ReadonlyArray<unknown>, pageSize: number | undefined): PagedList {
  const copy = JSON.parse(JSON.stringify(items)) as unknown[];
  if (pageSize === undefined || copy.length <= pageSize) {
    // One result object for every request: the SDK sends it as it is, so each item reaches the
    // wire exactly as captured, and nothing can make one request's list differ from the next.
    const only = deepFreeze({ [key]: copy });
    return (cursor) => {
      if (cursor !== undefined)
        throw invalidCursor(`this server lists every ${key === "resourceTemplates" ? "resource template" : key.slice(0, -1)} on one page and issued no cursor`);
      return only;
    };
  }
  const pages: Array<Record<string, unknown>> = [];
  for (let start = 0; start < copy.length; start += pageSize) {
    const next = start + pageSize < copy.length ? cursorOf(key, start + pageSize) : undefined;
    pages.push(deepFreeze({ [key]: copy.slice(start, start + pageSize), ...(next && { nextCursor: next }) }));
  }
  return (cursor) => {
    if (cursor === undefined) return pages[0];
    const offset = offsetOf(key, cursor);
    if (offset === undefined || offset % pageSize !== 0 || offset / pageSize >= pages.length) throw invalidCursor("this server never issued it");
    return pages[offset / pageSize];
  };
}

function cursorOf(key: string, offset: number): string {
  return Buffer.from(`${key}:${offset}`, "utf8").toString("base64url");
}

function offsetOf(key: string, cursor: string): number | undefined {
  if (cursor.length > 64) return undefined;
  const match = /^([A-Za-z]+):(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return match && match[1] === key ? Number(match[2]) : undefined;
}

function invalidCursor(why: string): ProtocolError {
  const sdk = mcpSdk();
  return new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, `Invalid cursor: ${why}`);
}

/** Freezes a JSON value and everything in it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
