/**
 * The MCP server SDK (and the zod it brings), loaded on first use. Importing it costs about a
 * fifth of a `validate`, which never serves a call, so no module of the engine imports it
 * statically (`npm run layers` holds to that): what serves MCP awaits `loadMcpSdk()` before it
 * builds an endpoint, and reads it synchronously with `mcpSdk()` from then on.
 */
import { createRequire } from "node:module";
import type * as ServerSdk from "@modelcontextprotocol/server";
import type * as AjvValidators from "@modelcontextprotocol/server/validators/ajv";

/** The SDK's main entry and its ajv validator, as one object. */
export type McpSdk = typeof ServerSdk & Pick<typeof AjvValidators, "AjvJsonSchemaValidator">;

let loaded: McpSdk | undefined;
let loading: Promise<McpSdk> | undefined;

/**
 * Loads the SDK once (every call answers the same promise); `mcpSdk()` works from then on.
 *
 * @example const { Server } = await loadMcpSdk();
 */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([import("@modelcontextprotocol/server"), import("@modelcontextprotocol/server/validators/ajv")]).then(
    ([sdk, validators]) => (loaded = { ...sdk, AjvJsonSchemaValidator: validators.AjvJsonSchemaValidator }),
  );
  return loading;
}

/**
 * The SDK `loadMcpSdk()` loaded. Serving code runs only after that await, so a call before it is
 * the engine's own mistake, said plainly rather than as an undefined property.
 *
 * @example const server = new (mcpSdk().Server)(info, options);
 */
export function mcpSdk(): McpSdk {
  if (loaded === undefined) throw new Error("[eval-simulate] the MCP SDK was used before it was loaded: await loadMcpSdk() first");
  return loaded;
}

let required: typeof ServerSdk | undefined;

/**
 * The SDK's `isCallToolResult`, for a check that must stay synchronous wherever it runs: the
 * loaded SDK's when there is one, else the SDK's CommonJS build, required in place. A predicate
 * keeps no identity, so which build answers cannot change what it says.
 */
export function isCallToolResult(value: unknown): boolean {
  if (loaded) return loaded.isCallToolResult(value);
  required ??= createRequire(import.meta.url)("@modelcontextprotocol/server") as typeof ServerSdk;
  return required.isCallToolResult(value);
}
