/**
 * An operation's declared responses: compiled once, then used to check each answer a handler
 * gives. The response for a status is the exact code's, else its range's (`4XX`), else
 * `default`; an answer with an undeclared status, an undeclared media type, or a body outside
 * the schema is refused, naming the schema it broke by its place in the document.
 */
import type { CompiledSchema, SchemaCompiler } from "../contract/index.js";
import { isSchemaObject } from "../contract/index.js";
import { child, deref, type DocumentNode } from "./openapi-document.js";
import { standaloneSchema } from "./openapi-schema.js";
import { coversMediaType, isJsonMediaType, mediaTypeOf } from "./request-body.js";

/** One declared response: its media types, each with its compiled schema when it has one. */
export interface CompiledResponse {
  /** As the document writes it: `200`, `4XX`, `default`. */
  key: string;
  at: string;
  content: Map<string, { validator?: CompiledSchema; at: string }>;
}

/** Why an answer breaks the document. */
export interface ResponseViolation {
  error: "response_not_in_document" | "response_schema";
  message: string;
  /** The schema or response broken: a JSON Pointer into the document. */
  schema?: string;
  problems?: Array<{ path?: string; message: string }>;
}

/**
 * Compiles an operation's responses by their keys.
 *
 * @example compileResponses(document, "#/paths/~1issues/get", "3.0", compiler).get("200");
 */
export function compileResponses(document: DocumentNode, operationAt: string, version: "3.0" | "3.1", compiler: SchemaCompiler): Map<string, CompiledResponse> {
  const operation = deref(document, { $ref: operationAt }, operationAt).node;
  const responses = new Map<string, CompiledResponse>();
  const declared = isSchemaObject(operation.responses) ? operation.responses : {};
  for (const [key, value] of Object.entries(declared)) {
    const { node, at } = deref(document, value, child(operationAt, "responses", key));
    const content = new Map<string, { validator?: CompiledSchema; at: string }>();
    for (const [mediaType, media] of Object.entries(isSchemaObject(node.content) ? node.content : {})) {
      const schema = isSchemaObject(media) ? media.schema : undefined;
      const schemaAt = child(at, "content", mediaType, "schema");
      let validator: CompiledSchema | undefined;
      if (schema !== undefined) {
        try {
          validator = compiler.compile(standaloneSchema(document, schema, version, schemaAt));
        } catch (error) {
          throw new Error(`[eval-simulate] cannot compile the schema at ${schemaAt}: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`, {
            cause: error,
          });
        }
      }
      content.set(mediaType.toLowerCase(), { validator, at: schemaAt });
    }
    responses.set(key.toUpperCase(), { key, at, content });
  }
  return responses;
}

/**
 * The declared response for a status: exact, then range (`4XX`), then `default`.
 *
 * @example responseFor(op.responses, 422)?.key; // "4XX"
 */
export function responseFor(responses: Map<string, CompiledResponse>, status: number): CompiledResponse | undefined {
  return responses.get(String(status)) ?? responses.get(`${Math.floor(status / 100)}XX`) ?? responses.get("DEFAULT");
}

/** The declared media type an answer is checked against, from its Content-Type or the defaults. */
function chooseMediaType(response: CompiledResponse, sent: string | undefined): string | undefined {
  const declared = [...response.content.keys()];
  if (sent !== undefined) return declared.find((type) => type === sent) ?? declared.find((type) => coversMediaType(type, sent));
  return declared.find((type) => type === "application/json") ?? declared.find(isJsonMediaType) ?? declared[0];
}

/**
 * Checks a handler's answer against the document. Returns the Content-Type to send (the
 * handler's, else the declared JSON media type, else `application/json`) or the violation.
 *
 * @example checkResponse(op.responses, { operation: "GET /issues", handler: "github/issues/list" }, 200, undefined, [{ id: 1 }]); // { contentType: "application/json" }
 */
export function checkResponse(
  responses: Map<string, CompiledResponse>,
  { operation, handler }: { operation: string; handler: string },
  status: number,
  contentType: string | undefined,
  body: unknown,
): { contentType: string } | { violation: ResponseViolation } {
  const response = responseFor(responses, status);
  if (!response) {
    const declared = [...responses.values()].map((r) => r.key).join(", ") || "none";
    return {
      violation: {
        error: "response_not_in_document",
        message: `[eval-simulate] the handler of ${handler} answered status ${status}, which is not declared for ${operation}; declared: ${declared}`,
      },
    };
  }
  const sent = mediaTypeOf(contentType);
  const fallback = sent === undefined ? "application/json" : contentType!;
  if (response.content.size === 0) {
    if (body === undefined || body === null) return { contentType: fallback };
    return {
      violation: {
        error: "response_schema",
        schema: response.at,
        message: `[eval-simulate] the handler of ${handler} answered ${status} with a body, but ${response.at} (${operation}) declares no content`,
        problems: [{ message: "must have no body" }],
      },
    };
  }
  const mediaType = chooseMediaType(response, sent);
  if (mediaType === undefined) {
    const declared = [...response.content.keys()].join(", ");
    return {
      violation: {
        error: "response_schema",
        schema: response.at,
        message: `[eval-simulate] the handler of ${handler} answered ${status} as ${sent}, which ${response.at} (${operation}) does not declare; declared: ${declared}`,
      },
    };
  }
  const { validator, at } = response.content.get(mediaType)!;
  if (validator && !validator.validate(body ?? null)) {
    const problems = validator.issues().map((issue) => ({ ...(issue.path ? { path: issue.path } : {}), message: issue.message }));
    return {
      violation: {
        error: "response_schema",
        schema: at,
        problems,
        message: `[eval-simulate] the ${status} answer of ${handler} to ${operation} is outside ${at}: ${validator.errorsText()}`,
      },
    };
  }
  return { contentType: sent !== undefined ? contentType! : mediaType.includes("*") ? "application/json" : mediaType };
}
