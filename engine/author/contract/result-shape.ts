/**
 * Whether a tool result is one the MCP protocol can carry (its CallToolResult): content blocks of
 * the five kinds with their required fields, `structuredContent` an object, `isError` a boolean,
 * `_meta` an object, every number finite. A handler that builds its own result is checked here
 * before its call commits, so a malformed one is a short tool error instead of the SDK's
 * multi-kilobyte validation dump after the state already changed.
 */
import { jsonValueProblem, MAX_MESSAGE_DEPTH } from "./json-value-check.js";
import { isCallToolResult } from "./mcp-sdk.js";

type Fields = Record<string, unknown>;

const KINDS = ["text", "image", "audio", "resource_link", "resource"];
const ROLES = new Set(["user", "assistant"]);
// zod's `iso.datetime({ offset: true })`, which the SDK checks `lastModified` with.
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

const isObject = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

function isBase64(value: string): boolean {
  try {
    atob(value);
    return true;
  } catch {
    return false;
  }
}

/** Checks the fields a block or resource needs and may have; gives the first problem. */
function fieldsProblem(
  where: string,
  value: Fields,
  required: Record<string, "text" | "base64">,
  optional: Record<string, "text" | "number">,
): string | undefined {
  for (const [name, kind] of Object.entries(required)) {
    const field = value[name];
    if (field === undefined) return `${where} needs "${name}"`;
    if (typeof field !== "string") return `${where} "${name}" must be text, not ${kindOf(field)}`;
    if (kind === "base64" && !isBase64(field)) return `${where} "${name}" must be base64 text`;
  }
  for (const [name, kind] of Object.entries(optional)) {
    const field = value[name];
    if (field === undefined) continue;
    if (kind === "text" && typeof field !== "string") return `${where} "${name}" must be text, not ${kindOf(field)}`;
    if (kind === "number" && typeof field !== "number") return `${where} "${name}" must be a number, not ${kindOf(field)}`;
  }
  if (value._meta !== undefined && !isObject(value._meta)) return `${where} "_meta" must be an object, not ${kindOf(value._meta)}`;
  return undefined;
}

function annotationsProblem(where: string, annotations: unknown): string | undefined {
  if (annotations === undefined) return undefined;
  if (!isObject(annotations)) return `${where} "annotations" must be an object, not ${kindOf(annotations)}`;
  const { audience, priority, lastModified } = annotations;
  if (audience !== undefined && !(Array.isArray(audience) && audience.every((role) => ROLES.has(role as string)))) {
    return `${where} annotations.audience must be a list of "user" and "assistant"`;
  }
  if (priority !== undefined && !(typeof priority === "number" && priority >= 0 && priority <= 1)) {
    return `${where} annotations.priority must be a number from 0 to 1, not ${kindOf(priority)}`;
  }
  if (lastModified !== undefined && !(typeof lastModified === "string" && DATETIME.test(lastModified))) {
    return `${where} annotations.lastModified must be an ISO 8601 date-time with an offset, not ${kindOf(lastModified)}`;
  }
  return undefined;
}

function blockProblem(block: unknown, index: number): string | undefined {
  if (!isObject(block)) return `content[${index}] must be a content block object, not ${kindOf(block)}`;
  const type = block.type;
  if (typeof type !== "string" || !KINDS.includes(type)) {
    return `content[${index}] has type ${type === undefined ? "none" : JSON.stringify(type)}; a content block is one of ${KINDS.join(", ")}`;
  }
  const where = `content[${index}] (${type})`;
  let problem: string | undefined;
  if (type === "text") problem = fieldsProblem(where, block, { text: "text" }, {});
  else if (type === "image" || type === "audio") problem = fieldsProblem(where, block, { data: "base64", mimeType: "text" }, {});
  else if (type === "resource_link") {
    problem = fieldsProblem(where, block, { uri: "text", name: "text" }, { title: "text", description: "text", mimeType: "text", size: "number" });
    if (!problem && block.icons !== undefined && !(Array.isArray(block.icons) && block.icons.every((icon) => isObject(icon) && typeof icon.src === "string"))) {
      problem = `${where} "icons" must be a list of { src }`;
    }
  } else {
    problem = fieldsProblem(where, block, {}, {});
    const resource = block.resource;
    if (!problem && resource === undefined) problem = `${where} needs "resource"`;
    else if (!problem && !isObject(resource)) problem = `${where} "resource" must be an object, not ${kindOf(resource)}`;
    else if (!problem && isObject(resource)) {
      const inner = `${where} resource`;
      problem = fieldsProblem(inner, resource, { uri: "text" }, { mimeType: "text" });
      if (!problem && resource.text === undefined && resource.blob === undefined) problem = `${inner} needs "text" or "blob"`;
      if (!problem)
        problem = resource.text !== undefined ? fieldsProblem(inner, resource, { text: "text" }, {}) : fieldsProblem(inner, resource, { blob: "base64" }, {});
    }
  }
  return problem ?? annotationsProblem(where, block.annotations);
}

/**
 * Why `result` is not a CallToolResult the MCP protocol can carry, in a short phrase naming the
 * field (`content[0] (image) needs "data"`), or undefined when it is one.
 *
 * @example
 * resultShapeProblem({ content: [{ type: "image", mimeType: "image/png" }] }); // 'content[0] (image) needs "data"'
 * resultShapeProblem({ content: [{ type: "text", text: "ok" }] }); // undefined
 */
export function resultShapeProblem(result: unknown): string | undefined {
  if (!isObject(result)) return `a tool result must be an object with "content", not ${kindOf(result)}`;
  if (!Array.isArray(result.content))
    return result.content === undefined
      ? 'a tool result needs "content" (a list of content blocks)'
      : `"content" must be a list of content blocks, not ${kindOf(result.content)}`;
  for (const [index, block] of result.content.entries()) {
    const problem = blockProblem(block, index);
    if (problem) return problem;
  }
  const { structuredContent, isError, _meta } = result;
  if (structuredContent !== undefined && !isObject(structuredContent)) return `"structuredContent" must be an object, not ${kindOf(structuredContent)}`;
  if (isError !== undefined && typeof isError !== "boolean") return `"isError" must be true or false, not ${kindOf(isError)}`;
  if (_meta !== undefined && !isObject(_meta)) return `"_meta" must be an object, not ${kindOf(_meta)}`;
  const value = jsonValueProblem(result, { maxDepth: MAX_MESSAGE_DEPTH });
  if (value) return `${value.path.slice(1).replace(/\//g, ".") || "the result"} ${value.message}`;
  // Whatever this check does not name, the SDK's own schema still refuses, before anything commits.
  if (!isCallToolResult(result)) return "the result is not a CallToolResult the MCP protocol accepts";
  return undefined;
}
