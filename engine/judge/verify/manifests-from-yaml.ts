/**
 * Write maps derived from a `fakes.yaml`, equal to those `serve --manifest-dir` writes for it, so
 * a check can run against the manifest a Recipe commits. The manifest is not validated here
 * (`eval-simulate validate` does that) and captured tools are not read: the entity maps are
 * all in the manifest itself.
 */
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { normalizeManifest } from "./normalize-manifest.js";
import { readRegularFile } from "../../core/files/index.js";
import type { WriteMaps } from "../../core/record/index.js";

type Json = Record<string, unknown>;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Loaded on demand: the rest of this folder runs on Node built-ins alone, and only a caller that
 * passes a fakes.yaml needs a YAML parser (the package's own dependency).
 */
function parseYaml(text: string, file: string): unknown {
  let yaml: { parse(text: string, options?: { maxAliasCount?: number; merge?: boolean; uniqueKeys?: boolean }): unknown };
  try {
    yaml = createRequire(import.meta.url)("yaml") as typeof yaml;
  } catch (error) {
    throw new Error(
      `[eval-simulate] reading ${file} needs the "yaml" package, which cannot be loaded: pass the manifest dir serve --manifest-dir wrote instead`,
      {
        cause: error,
      },
    );
  }
  try {
    // yaml's duplicate-key check is quadratic in a mapping's size (a 100,000-key world never
    // finishes); duplicates are validate's to report.
    return yaml.parse(text, { maxAliasCount: 1000, merge: true, uniqueKeys: false });
  } catch (error) {
    throw new Error(`[eval-simulate] ${file} is not valid YAML: ${(error as Error).message}`, { cause: error });
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readText(file: string): string {
  const read = readRegularFile(file);
  if (!read.ok) throw new Error(`[eval-simulate] cannot read ${file}: it ${read.reason}`);
  return read.text;
}

/**
 * Every server's and API's write map from a fakes.yaml.
 *
 * @example
 * manifestsFromYaml("examples/mail/fakes.yaml").mail.tools["send-email"].writes; // ["emails", "sendAttempts"]
 */
export function manifestsFromYaml(file: string): WriteMaps {
  const document = parseYaml(readText(file), file);
  if (!isObject(document)) throw new Error(`[eval-simulate] ${file} is not a fakes.yaml: its top level is not a mapping`);
  const manifests: WriteMaps = {};
  for (const [id, server] of Object.entries(isObject(document.servers) ? document.servers : {})) {
    if (!isObject(server)) continue;
    const { description, entities, tools } = server;
    manifests[id] = normalizeManifest({ description, entities, tools }, id, "mcp", `${file} (servers.${id})`);
  }
  for (const [id, api] of Object.entries(isObject(document.apis) ? document.apis : {})) {
    if (!isObject(api)) continue;
    if (manifests[id]) throw new Error(`[eval-simulate] ${file}: "${id}" is both a server and an api (an id names one fake)`);
    const operations = servedOperations(api, dirname(file));
    manifests[id] = normalizeManifest(
      { description: api.description, entities: api.entities, operations, ...(typeof api.emulate === "string" ? { emulate: api.emulate } : {}) },
      id,
      "api",
      `${file} (apis.${id})`,
    );
  }
  return manifests;
}

/**
 * An API's operations under the names the host serves and records them by (the operationId
 * where the document gives one), each with its method and path template. Without a readable
 * document, the manifest's own keys are kept.
 */
function servedOperations(api: Json, dir: string): Json {
  const listed = isObject(api.operations) ? api.operations : {};
  const found = typeof api.openapi === "string" ? documentOperations(resolve(dir, api.openapi)) : [];
  const operations: Json = {};
  for (const [key, spec] of Object.entries(listed)) {
    const match = found.find((op) => op.operationId === key || `${op.method} ${op.path}` === key);
    if (!match || !isObject(spec)) {
      operations[key] = spec;
      continue;
    }
    operations[match.operationId ?? `${match.method} ${match.path}`] = { reads: spec.reads, writes: spec.writes, method: match.method, path: match.path };
  }
  return operations;
}

function documentOperations(file: string): Array<{ method: string; path: string; operationId?: string }> {
  let document: unknown;
  try {
    document = parseYaml(readText(file), file);
  } catch {
    return []; // an unreadable document is validate's to report; the manifest's keys still name the operations
  }
  const paths = isObject(document) && isObject(document.paths) ? document.paths : {};
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((method) => isObject(item) && isObject(item[method])).map((method) => {
      const operationId = ((item as Json)[method] as Json).operationId;
      return { method: method.toUpperCase(), path, ...(typeof operationId === "string" ? { operationId } : {}) };
    }),
  );
}
