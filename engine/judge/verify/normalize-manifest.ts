/**
 * One fake's write map, checked and put in the one shape the checks read, whether it came from
 * a `manifest.json` or was derived from `fakes.yaml`: so the two sources compare equal.
 */
import type { OperationWrites, ToolWrites, WriteMap } from "../../core/record/index.js";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function names(value: unknown, what: string, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((name) => typeof name !== "string")) {
    throw new Error(`[eval-simulate] ${where}: ${what} must be a list of entity names`);
  }
  return [...value];
}

/** Entities as a list of names, or (as `fakes.yaml` declares them) an object keyed by name. */
function entityNames(value: unknown, where: string): string[] {
  return isObject(value) ? Object.keys(value) : names(value, "entities", where);
}

function toolWrites(name: string, spec: unknown, where: string): ToolWrites {
  if (!isObject(spec)) throw new Error(`[eval-simulate] ${where}: tool "${name}" must be an object with reads and writes`);
  const kind = spec.kind ?? "stateful";
  if (kind !== "stateful" && kind !== "static") {
    throw new Error(`[eval-simulate] ${where}: tool "${name}" has kind ${JSON.stringify(kind)}; expected stateful or static`);
  }
  return { kind, reads: names(spec.reads, `"${name}".reads`, where), writes: names(spec.writes, `"${name}".writes`, where) };
}

function operationWrites(name: string, spec: unknown, where: string): OperationWrites {
  if (!isObject(spec)) throw new Error(`[eval-simulate] ${where}: operation "${name}" must be an object with reads and writes`);
  const entry: OperationWrites = { reads: names(spec.reads, `"${name}".reads`, where), writes: names(spec.writes, `"${name}".writes`, where) };
  const route = /^([A-Za-z]+) (\/\S*)$/.exec(name);
  const method = typeof spec.method === "string" ? spec.method : route?.[1];
  const path = typeof spec.path === "string" ? spec.path : route?.[2];
  if (method !== undefined) entry.method = method.toUpperCase();
  if (path !== undefined) entry.path = path;
  return entry;
}

function mapOf<T>(value: unknown, what: string, where: string, entry: (name: string, spec: unknown, where: string) => T): Record<string, T> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new Error(`[eval-simulate] ${where}: ${what} must be an object keyed by name`);
  return Object.fromEntries(Object.entries(value).map(([name, spec]) => [name, entry(name, spec, where)]));
}

/**
 * A fake's write map from a parsed manifest. `id` and `kind` come from where the manifest was
 * found (its folder), and a manifest that names another id or kind is refused, since a check
 * would then read one fake's map for another's calls.
 */
export function normalizeManifest(raw: unknown, id: string, kind: "mcp" | "api" | undefined, where: string): WriteMap {
  if (!isObject(raw)) throw new Error(`[eval-simulate] ${where}: a manifest must be a JSON object`);
  if (raw.id !== undefined && raw.id !== id) {
    throw new Error(`[eval-simulate] ${where}: the manifest says id ${JSON.stringify(raw.id)}, but it is the manifest of "${id}"`);
  }
  const stated = raw.kind === "mcp" || raw.kind === "api" ? raw.kind : undefined;
  if (raw.kind !== undefined && stated === undefined) {
    throw new Error(`[eval-simulate] ${where}: kind ${JSON.stringify(raw.kind)} is neither "mcp" nor "api"`);
  }
  if (kind !== undefined && stated !== undefined && stated !== kind) {
    throw new Error(`[eval-simulate] ${where}: the manifest says kind "${stated}", but it sits with the ${kind} fakes`);
  }
  const resolved = kind ?? stated ?? (raw.operations !== undefined && raw.tools === undefined ? "api" : "mcp");
  const description = typeof raw.description === "string" ? { description: raw.description } : {};
  const entities = entityNames(raw.entities, where);
  const manifest: WriteMap =
    resolved === "api"
      ? {
          id,
          kind: "api",
          ...description,
          entities,
          operations: mapOf(raw.operations, "operations", where, operationWrites),
          ...(typeof raw.emulate === "string" ? { emulate: raw.emulate } : {}),
        }
      : { id, kind: "mcp", ...description, entities, tools: mapOf(raw.tools, "tools", where, toolWrites) };
  checkWrittenEntities(manifest, where);
  return manifest;
}

/** A write to an entity the fake does not declare could never show up in changedEntities. */
function checkWrittenEntities(manifest: WriteMap, where: string): void {
  const map: Record<string, { writes: string[] }> = manifest.kind === "api" ? manifest.operations : manifest.tools;
  for (const [name, entry] of Object.entries(map)) {
    const unknown = entry.writes.filter((entity) => !manifest.entities.includes(entity));
    if (unknown.length > 0) {
      throw new Error(`[eval-simulate] ${where}: "${name}" writes ${unknown.join(", ")}, which "${manifest.id}" does not declare among its entities`);
    }
  }
}
