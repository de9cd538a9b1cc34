/**
 * The names an agent harness gives a fake's tools, and the lookup from such a name back to the
 * fake and the tool's contract name.
 *
 * Harnesses rename MCP tools to keep them unique and within model providers' limit of 64
 * characters from `[A-Za-z0-9_-]`. The forms recognised are: the bare tool name (only while a
 * single fake serves it), `<server>_<tool>`, `<server>__<tool>`, `<server>/<tool>`,
 * `mcp__<server>__<tool>`, the hashed form of `piToolNames`; then, when no name matches as
 * given, each of these with characters outside `[A-Za-z0-9_-]` replaced by `_` (what providers
 * accept), and last lowercased with every character outside `[a-z0-9]` replaced by `_` (as
 * harnesses that write snake_case names do: `crm_create_note`).
 */
import { createHash } from "node:crypto";
import { entityMapOf, type WriteMaps } from "../../core/record/index.js";

/** The two names of `piToolNames`: readable first, hashed second. */
export type PiToolNames = readonly [readable: string, hashed: string];

/** A name as providers accept it: characters outside `[A-Za-z0-9_-]` become `_`. */
function safe(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** A name as snake_case harnesses write it. */
function loose(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "_");
}

/**
 * The names an agent harness such as Pi gives a fake's MCP tool: the readable
 * `mcp__<server>__<tool>`, and the hashed `<server>_<h>` where `<h>` is the first 8 hex digits
 * of the SHA-1 of `<server>/<tool>`, which stays within 64 characters however long the tool's
 * name is. Both are made provider-safe (characters outside `[A-Za-z0-9_-]` become `_`; the
 * server part of the hashed name is cut at 55 characters). The hash is of the names as given.
 *
 * @example
 * piToolNames("crm", "create-record"); // ["mcp__crm__create-record", "crm_" + 8 hex digits]
 */
export function piToolNames(server: string, tool: string): PiToolNames {
  const hash = createHash("sha1").update(`${server}/${tool}`).digest("hex").slice(0, 8);
  return [`mcp__${safe(server)}__${safe(tool)}`, `${safe(server).slice(0, 55)}_${hash}`];
}

/** Every name a harness may call (server, tool) by, except the bare tool name. */
function qualifiedNames(server: string, tool: string): string[] {
  return [`${server}_${tool}`, `${server}__${tool}`, `${server}/${tool}`, `mcp__${server}__${tool}`, ...piToolNames(server, tool)];
}

/** A name's meaning: one tool, several (ambiguous), or none. */
export type NameResolution = { server: string; tool: string }[];

/** Looks harness names up among the tools and operations of a set of fakes. */
export interface ToolNameIndex {
  /** The (server, tool) pairs a name may mean: exact forms first, then provider-safe, then snake_case forms. */
  resolve(name: string): NameResolution;
}

/**
 * An index of every name each tool (and operation) of these fakes may be called by.
 *
 * @example
 * toolNameIndex(manifests).resolve("mcp__crm__create-record"); // [{ server: "crm", tool: "create-record" }]
 */
export function toolNameIndex(manifests: WriteMaps): ToolNameIndex {
  // One index per tier, each mapping a name to the (server, tool) pairs it may mean.
  const tiers = [(name: string) => name, safe, loose].map((form) => ({ form, index: new Map<string, Map<string, { server: string; tool: string }>>() }));
  for (const [server, manifest] of Object.entries(manifests)) {
    for (const tool of Object.keys(entityMapOf(manifest))) {
      for (const name of [tool, ...qualifiedNames(server, tool)]) {
        for (const { form, index } of tiers) {
          const pairs = index.get(form(name)) ?? new Map();
          pairs.set(`${server}\u0000${tool}`, { server, tool });
          index.set(form(name), pairs);
        }
      }
    }
  }
  return {
    resolve(name) {
      for (const { form, index } of tiers) {
        const found = index.get(form(name));
        if (found) return [...found.values()];
      }
      return [];
    },
  };
}
