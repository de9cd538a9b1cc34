import type { Client } from "@modelcontextprotocol/client";
import { readResult } from "../../author/contract/index.js";
import { contractOfClient } from "./connect.js";

/** A tool call's result, read: its text, whether it is a tool error, its structured content. */
export interface ToolCallResult {
  /** The text of its text content (the items joined by a line break when there are several). */
  text: string;
  isError: boolean;
  /** The structured content, when the result has one. */
  structured?: unknown;
  /** The decoded answer, when the call succeeded and the client knows the tool's contract. */
  value?: unknown;
}

/**
 * A tool error, thrown by `call`: its message is the tool error's text.
 *
 * @example await assert.rejects(call(crm, "get-record", { object: "deals", record_id }), ToolCallError);
 */
export class ToolCallError extends Error {
  override name = "ToolCallError";
  constructor(
    readonly tool: string,
    readonly result: ToolCallResult,
  ) {
    super(result.text);
  }
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .filter((item): item is { type: "text"; text: string } => item?.type === "text" && typeof item.text === "string")
    .map((item) => item.text)
    .join("\n");
}

/**
 * Calls a tool and reads its result. A successful answer of a tool whose contract the client
 * knows (see `connect`) must be that contract's answer, or this throws: an answer outside the
 * contract would make every measurement of the agent invalid. A tool error is returned, not
 * thrown; a call to a tool the fake does not serve rejects with the JSON-RPC error.
 *
 * @example
 * const read = await callTool(crm, "get-record", { object: "deals", record_id: id });
 * read.structured; // { object: "deals", record_id: id, … }
 */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolCallResult> {
  const result = await client.callTool({ name, arguments: args });
  const read: ToolCallResult = { text: textOf(result.content), isError: result.isError === true };
  if (result.structuredContent !== undefined) read.structured = result.structuredContent;
  if (read.isError) return read;
  const contract = contractOfClient(client);
  const entry = contract?.tools.get(name);
  if (contract === undefined || entry === undefined) return read;
  const reading = readResult(entry, read);
  if (!reading.ok) {
    throw new Error(
      `[eval-simulate] ${contract.fake}/${name} answered outside its contract: ${reading.error}. ` +
        `Fix the handler so it answers in the tool's declared format and schema. The text was: ${JSON.stringify(read.text.slice(0, 300))}`,
    );
  }
  read.value = reading.value;
  return read;
}

/**
 * Calls a tool and returns the text of its successful answer; a tool error throws a
 * `ToolCallError` whose message is the error's text.
 *
 * @example
 * await call(mail, "send-email", { to: "dana@acme.example", subject: "Hi", text: "…" });
 * await assert.rejects(call(weather, "get-forecast", { station_id: "ZZZZ" }), /Unknown station/);
 */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await callTool(client, name, args);
  if (result.isError) throw new ToolCallError(name, result);
  return result.text;
}
