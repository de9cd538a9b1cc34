import { documentOperations, type DocumentOperation } from "../manifest/index.js";
import { didYouMean } from "../source/index.js";

type Json = Record<string, unknown>;

/** Corrections a capture applies to a published description, recorded beside it in the manifest. */
export interface CaptureCorrections {
  /** Drop properties marked `x-ms-navigationProperty: true` (Microsoft Graph's links to other entities). */
  dropNavigationProperties?: boolean;
  /** Property names removed from every `required` list. */
  dropRequired?: string[];
  /** Responses the description forgot, by operation (name or `METHOD /path`) and status code. */
  addResponses?: Record<string, Record<string, unknown>>;
}

const PATH_ITEM_KEYS = ["summary", "description", "servers", "parameters"];

/** The operation a name means: `METHOD /path/template` or an operationId. */
export function findOperation(operations: DocumentOperation[], name: string): DocumentOperation | undefined {
  const spaced = name.trim().replace(/\s+/, " ");
  const [method, path] = spaced.includes(" ") ? spaced.split(" ") : [undefined, undefined];
  return operations.find((op) => (method !== undefined ? op.method === method.toUpperCase() && op.pathTemplate === path : op.operationId === spaced));
}

/** Every `#/components/...` reference reachable from `value`, following references transitively. */
function reachableComponents(start: unknown, document: Json): Set<string> {
  const seen = new Set<string>();
  const pending: unknown[] = [start];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (value && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        if (key === "$ref" && typeof item === "string" && item.startsWith("#/components/") && !seen.has(item)) {
          seen.add(item);
          pending.push(resolvePointer(document, item));
        } else pending.push(item);
      }
    }
  }
  return seen;
}

function resolvePointer(document: Json, ref: string): unknown {
  return ref
    .slice(2)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Json)[key] : undefined), document);
}

function applyCorrections(value: unknown, corrections: CaptureCorrections): unknown {
  if (Array.isArray(value)) return value.map((item) => applyCorrections(item, corrections));
  if (!value || typeof value !== "object") return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "required" && Array.isArray(item) && corrections.dropRequired?.length) {
      out[key] = item.filter((name) => !corrections.dropRequired?.includes(name as string));
    } else if (key === "properties" && item && typeof item === "object" && corrections.dropNavigationProperties) {
      out[key] = Object.fromEntries(
        Object.entries(item)
          .filter(([, schema]) => !(schema as Json | undefined)?.["x-ms-navigationProperty"])
          .map(([name, schema]) => [name, applyCorrections(schema, corrections)]),
      );
    } else out[key] = applyCorrections(item, corrections);
  }
  return out;
}

/**
 * A published OpenAPI description trimmed to the operations named (by `METHOD /path` or
 * operationId), keeping every component they reference, transitively, and nothing else; then
 * the recorded corrections applied. Throws naming each operation it cannot find.
 *
 * @example trimDocument(github, ["GET /repos/{owner}/{repo}/issues", "issues/create"])
 */
export function trimDocument(document: Json, names: readonly string[], corrections: CaptureCorrections = {}): Json {
  const available = documentOperations(document);
  const missing = names.filter((name) => !findOperation(available, name));
  if (missing.length > 0) {
    const known = available.flatMap((op) => [`${op.method} ${op.pathTemplate}`, ...(op.operationId ? [op.operationId] : [])]);
    const near = (m: string) => {
      const found = didYouMean(m, known);
      return found === undefined ? "" : ` (did you mean "${found}"?)`;
    };
    throw new Error(`[eval-simulate] the description has no operation ${missing.map((m) => `"${m}"${near(m)}`).join(", ")}`);
  }
  const chosen = names.map((name) => findOperation(available, name) as DocumentOperation);
  const sourcePaths = document.paths as Record<string, Json>;
  const paths: Record<string, Json> = {};
  // Document order, not the order named, so a re-capture writes the same file.
  for (const op of available.filter((op) => chosen.includes(op))) {
    const item = sourcePaths[op.pathTemplate];
    const kept = (paths[op.pathTemplate] ??= Object.fromEntries(PATH_ITEM_KEYS.filter((k) => k in item).map((k) => [k, item[k]])));
    kept[op.method.toLowerCase()] = item[op.method.toLowerCase()];
  }
  const security = document.security;
  const refs = reachableComponents({ paths, security }, document);
  const components: Record<string, Json> = {};
  const sourceComponents = (document.components ?? {}) as Record<string, Json>;
  for (const [kind, entries] of Object.entries(sourceComponents)) {
    for (const name of Object.keys(entries ?? {})) {
      const schemeUsed = kind === "securitySchemes" && usesScheme({ paths, security }, name);
      if (refs.has(`#/components/${kind}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`) || schemeUsed) {
        (components[kind] ??= {})[name] = entries[name];
      }
    }
  }
  const trimmed: Json = { openapi: document.openapi, info: document.info };
  for (const key of ["jsonSchemaDialect", "servers", "security", "tags", "externalDocs"]) {
    if (document[key] !== undefined) trimmed[key] = document[key];
  }
  trimmed.paths = paths;
  if (Object.keys(components).length > 0) trimmed.components = components;
  if (document.tags) {
    const used = new Set(chosen.flatMap((op) => ((sourcePaths[op.pathTemplate][op.method.toLowerCase()] as Json).tags as string[]) ?? []));
    trimmed.tags = (document.tags as Array<{ name: string }>).filter((tag) => used.has(tag.name));
  }
  const corrected = applyCorrections(trimmed, corrections) as Json;
  for (const [name, responses] of Object.entries(corrections.addResponses ?? {})) {
    const op = findOperation(documentOperations(corrected), name);
    if (!op) throw new Error(`[eval-simulate] addResponses names "${name}", which is not a captured operation`);
    const target = (corrected.paths as Record<string, Json>)[op.pathTemplate][op.method.toLowerCase()] as Json;
    target.responses = { ...((target.responses as Json) ?? {}), ...responses };
  }
  return corrected;
}

/** True when any security requirement in `value` names the scheme. */
function usesScheme(value: { paths: unknown; security: unknown }, scheme: string): boolean {
  const requirements: unknown[] = [value.security];
  for (const item of Object.values(value.paths as Record<string, Json>)) {
    for (const op of Object.values(item)) requirements.push((op as Json | undefined)?.security);
  }
  return requirements.some((list) => Array.isArray(list) && list.some((req) => req && typeof req === "object" && scheme in req));
}
