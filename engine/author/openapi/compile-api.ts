/**
 * An API fake compiled once at start-up: its router over every path of its document, and for
 * each served operation the compiled parameters, request body and responses, and each entity's
 * schema, so a request costs no compiling.
 */
import { type CompiledSchema, createSchemaCompiler } from "../contract/index.js";
import type { ApiManifest, OperationManifest } from "../model/index.js";
import { ApiRouter, type RouteOperation } from "./api-router.js";
import { basePathOf, openapiVersion, pointer, realOriginsOf, type DocumentNode } from "./openapi-document.js";
import { compileParameters, type CompiledParameter } from "./parameters.js";
import { compileBody, type CompiledBody } from "./request-body.js";
import { compileResponses, type CompiledResponse } from "./responses.js";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** One served operation with everything a request needs. */
export interface CompiledOperation {
  manifest: OperationManifest;
  /** `METHOD /template`, as journaled and recorded. */
  key: string;
  /** The operation's place in the document. */
  at: string;
  parameters: CompiledParameter[];
  body?: CompiledBody;
  responses: Map<string, CompiledResponse>;
}

/** An API fake ready to serve. */
export interface CompiledApi {
  id: string;
  manifest: ApiManifest;
  /** The path its operations sit under: `servers[0].url`'s path (`/v1.0`), or `""`. */
  basePath: string;
  /** The real API's origins, whose links are rewritten to the client's base. */
  realOrigins: string[];
  router: ApiRouter<CompiledOperation>;
  /** Served operations by name (operationId or `METHOD /template`). */
  operations: Map<string, CompiledOperation>;
  /** Each entity's schema: a request's changes are checked before they commit. */
  entities: Map<string, CompiledSchema>;
  timeoutMs: number;
}

/**
 * Compiles an API fake from its manifest: routes for every operation of the document, and
 * validators for the served ones. Throws an `[eval-simulate]` error naming the place in the
 * document of a schema or `$ref` that cannot be compiled. An `emulate` API has no document and
 * is refused: it is served by emulate, not here.
 *
 * @example const api = compileApi(manifest.apis[0]); api.router.match("GET", "/issues");
 */
export function compileApi(api: ApiManifest): CompiledApi {
  const document = api.document as DocumentNode | undefined;
  if (!document) throw new Error(`[eval-simulate] api "${api.id}" has no OpenAPI document${api.emulate ? ` (it is emulate's ${api.emulate})` : ""}`);
  const version = openapiVersion(document);
  // OpenAPI 3.1 schemas are 2020-12; 3.0 schemas are converted to it (see standaloneSchema).
  const compiler = createSchemaCompiler({ defaultDialect: "2020-12" });
  const served = new Map(api.operations.map((operation) => [`${operation.method} ${operation.pathTemplate}`, operation]));
  const operations = new Map<string, CompiledOperation>();
  const routes: Array<RouteOperation<CompiledOperation>> = [];
  for (const [template, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const method of METHODS) {
      if (!item || typeof item !== "object" || item[method] === undefined) continue;
      const key = `${method.toUpperCase()} ${template}`;
      const manifest = served.get(key);
      const route: RouteOperation<CompiledOperation> = { method: method.toUpperCase(), template };
      if (manifest) {
        const at = pointer("paths", template, method);
        const compiled: CompiledOperation = {
          manifest,
          key,
          at,
          parameters: compileParameters(document, pointer("paths", template), at, version, compiler),
          body: compileBody(document, at, version, compiler),
          responses: compileResponses(document, at, version, compiler),
        };
        operations.set(manifest.name, compiled);
        route.served = compiled;
      }
      routes.push(route);
    }
  }
  // Entity schemas are the manifest's own JSON Schemas, draft-07 unless they say otherwise.
  const declared = createSchemaCompiler();
  return {
    id: api.id,
    manifest: api,
    basePath: basePathOf(document),
    realOrigins: realOriginsOf(document, api.hosts),
    router: new ApiRouter(routes),
    operations,
    entities: new Map(api.entities.map((entity) => [entity.name, declared.compile(entity.schema)])),
    timeoutMs: api.timeoutMs,
  };
}
