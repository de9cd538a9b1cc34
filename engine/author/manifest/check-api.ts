import { resolve } from "node:path";
import type { ManifestDocument } from "../../../schema/manifest.js";
import { compileApi } from "../openapi/index.js";
import type { OperationHandler } from "../handlers/index.js";
import { checkEntityNames, checkHandler } from "./check-handler.js";
import { checkEntities, checkSetTargets, DEFAULT_TIMEOUT_MS } from "./check-server.js";
import { suggestion } from "../source/index.js";
import { loadHandlersModule } from "./handlers-module.js";
import { compileNotingPatterns, type LoadContext } from "./load-context.js";
import { SourceDocument } from "../source/index.js";
import type { ApiManifest, OperationManifest } from "../model/index.js";

type ApiDocument = NonNullable<ManifestDocument["apis"]>[string];

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** One operation of an OpenAPI document, by the names a manifest may use for it. */
export interface DocumentOperation {
  method: string;
  pathTemplate: string;
  operationId?: string;
}

/** Every operation of an OpenAPI document, in document order. */
export function documentOperations(document: Record<string, unknown>): DocumentOperation[] {
  const operations: DocumentOperation[] = [];
  for (const [template, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const method of METHODS) {
      const operation = item?.[method] as { operationId?: string } | undefined;
      if (operation) operations.push({ method: method.toUpperCase(), pathTemplate: template, operationId: operation.operationId });
    }
  }
  return operations;
}

/** The name an operation is served and recorded under: its operationId, else `METHOD /template`. */
export function operationName(operation: DocumentOperation): string {
  return operation.operationId ?? `${operation.method} ${operation.pathTemplate}`;
}

function readDocument(api: ApiDocument, path: string[], context: LoadContext): Record<string, unknown> | undefined {
  const read = context.files.read(api.openapi as string);
  const file = read.file;
  if (!read.ok) {
    context.report.error("E_IO", [...path, "openapi"], `cannot read the OpenAPI document ${api.openapi}: it ${read.reason}`);
    return undefined;
  }
  const source = new SourceDocument(file, read.text);
  for (const problem of source.problems) {
    context.report.error("E_FILE_PARSE", [...path, "openapi"], problem.message, { in: { file, position: problem.position } });
  }
  const document = source.value as Record<string, unknown> | undefined;
  if (source.problems.length > 0 || !document) return undefined;
  const version = String(document.openapi ?? "");
  if (!/^3\.[01]\./.test(version) || typeof document.paths !== "object") {
    context.report.error("E_OPENAPI", [...path, "openapi"], `${api.openapi} is not an OpenAPI 3.0 or 3.1 document with paths`, {
      in: { file, position: source.positionOf([]) },
    });
    return undefined;
  }
  return document;
}

/** Checks one API fake: its document or emulate service, its operations and their handlers. */
export async function checkApi(id: string, api: ApiDocument, context: LoadContext): Promise<ApiManifest | undefined> {
  const { report, dir } = context;
  const path = ["apis", id];
  if ((api.openapi === undefined) === (api.emulate === undefined)) {
    report.error("E_OPENAPI", path, `api "${id}" needs exactly one of \`openapi\` (a document) or \`emulate\` (a built-in service)`, { key: true });
    return undefined;
  }
  const entities = checkEntities(api.entities, [...path, "entities"], context);
  const base = {
    id,
    description: api.description,
    ...(api.required === true && { required: true }),
    hosts: api.hosts ?? [],
    timeoutMs: api.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    entities,
    capture: api.capture,
    source: report.location(path),
  };
  if (api.emulate) {
    if (api.operations || api.handlers) {
      report.error("E_OPENAPI", path, `api "${id}" uses emulate's ${api.emulate}, which serves its own operations: remove \`operations\` and \`handlers\``, {
        key: true,
      });
    }
    return { ...base, emulate: api.emulate, operations: [] };
  }
  const document = readDocument(api, path, context);
  const module = api.handlers ? await loadHandlersModule(api.handlers, [...path, "handlers"], context.files, report) : undefined;
  if (!document) return undefined;
  const available = documentOperations(document);
  const names = available.flatMap((op) => [operationName(op), `${op.method} ${op.pathTemplate}`]);
  const operations: OperationManifest[] = [];
  const seen = new Map<DocumentOperation, string>();
  for (const [name, spec] of Object.entries(api.operations ?? {})) {
    const at = [...path, "operations", name];
    const found = available.find((op) => op.operationId === name || `${op.method} ${op.pathTemplate}` === name);
    if (!found) {
      report.error("E_UNKNOWN_OPERATION", at, `"${name}" is not an operation of ${api.openapi}.${suggestion(name, names)}`, { key: true });
      continue;
    }
    if (seen.has(found)) {
      report.error("E_UNKNOWN_OPERATION", at, `"${name}" is the same operation as "${seen.get(found)}": list each operation once`, { key: true });
      continue;
    }
    seen.set(found, name);
    const known = entities.map((e) => e.name);
    const reads = checkEntityNames(spec.reads, known, [...at, "reads"], context);
    const writes = checkEntityNames(spec.writes, known, [...at, "writes"], context);
    // The handlers module's entry goes by the name the manifest uses for the operation.
    const handler = checkHandler<OperationHandler>(name, spec, at, module, context);
    if (handler?.kind === "jsonata") checkSetTargets(name, handler.jsonata.writes, writes, known, [...at, "jsonata", "set"], context);
    if (!handler) continue;
    operations.push({
      name: operationName(found),
      method: found.method,
      pathTemplate: found.pathTemplate,
      reads,
      writes,
      handler,
      source: report.location(at),
    });
  }
  for (const name of Object.keys(module?.handlers ?? {})) {
    if (!api.operations?.[name]) {
      report.warn(
        "W_UNUSED_HANDLER",
        [...path, "handlers"],
        `the handlers module exports "${name}", which ${id} does not serve.${suggestion(name, Object.keys(api.operations ?? {}))}`,
      );
    }
  }
  const manifest: ApiManifest = { ...base, openapiFile: resolve(dir, api.openapi as string), document, handlersFile: module?.file, operations };
  // Compiled as the host will compile it, so a document whose schemas do not compile fails here.
  try {
    compileNotingPatterns(() => compileApi(manifest), [...path, "openapi"], context);
  } catch (error) {
    report.error("E_OPENAPI", [...path, "openapi"], (error as Error).message.replace(/^\[eval-simulate\] /, ""));
    return undefined;
  }
  return manifest;
}
