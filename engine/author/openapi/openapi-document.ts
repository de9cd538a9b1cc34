/**
 * Reading an OpenAPI 3.0/3.1 document as the router and validators need it: its version, base
 * path and real base URLs, and `$ref`s to its own parts followed with the pointer they lead to,
 * so every error can name the place in the document it comes from.
 */
import { pointerToken } from "../contract/index.js";

/** An OpenAPI document (or any part of it) as parsed JSON. */
export type DocumentNode = Record<string, unknown>;

/**
 * The OpenAPI version family: 3.0 schemas need converting to JSON Schema, 3.1 schemas are 2020-12.
 *
 * @example openapiVersion({ openapi: "3.0.3" }); // "3.0"
 */
export function openapiVersion(document: DocumentNode): "3.0" | "3.1" {
  return String(document.openapi ?? "").startsWith("3.0") ? "3.0" : "3.1";
}

/**
 * A JSON Pointer fragment from unescaped tokens.
 *
 * @example pointer("paths", "/issues", "get"); // "#/paths/~1issues/get"
 */
export function pointer(...tokens: Array<string | number>): string {
  return `#${tokens.map((token) => `/${pointerToken(String(token))}`).join("")}`;
}

/**
 * A pointer some steps further down.
 *
 * @example child("#/paths/~1issues/get", "responses", "200"); // "#/paths/~1issues/get/responses/200"
 */
export function child(at: string, ...tokens: Array<string | number>): string {
  return at + pointer(...tokens).slice(1);
}

/**
 * The value a local pointer leads to, or undefined.
 *
 * @example atPointer(document, "#/components/schemas/Issue");
 */
export function atPointer(document: DocumentNode, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === "") return document;
  if (!fragment.startsWith("/")) return undefined;
  let node: unknown = document;
  for (const raw of fragment.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/**
 * Follows a chain of `$ref`s (parameters, request bodies, responses) to the object they name,
 * with the pointer of where it was found. Throws on a ref that leads nowhere or in a circle.
 *
 * @example
 * deref(document, { $ref: "#/components/responses/NotFound" }, "#/paths/~1x/get/responses/404");
 * // { node: { description: "Not found", … }, at: "#/components/responses/NotFound" }
 */
export function deref(document: DocumentNode, value: unknown, at: string): { node: DocumentNode; at: string } {
  const seen = new Set<string>();
  let node = value;
  let where = at;
  while (node !== null && typeof node === "object" && typeof (node as DocumentNode).$ref === "string") {
    const ref = (node as DocumentNode).$ref as string;
    if (seen.has(ref)) throw new Error(`[eval-simulate] ${where}: the $ref ${ref} leads back to itself`);
    seen.add(ref);
    const target = atPointer(document, ref);
    if (target === undefined) throw new Error(`[eval-simulate] ${where}: the $ref ${ref} points at nothing in the document (only local refs, #/..., are read)`);
    node = target;
    where = ref;
  }
  if (node === null || typeof node !== "object" || Array.isArray(node)) throw new Error(`[eval-simulate] ${where} is not an object`);
  return { node: node as DocumentNode, at: where };
}

/** A server URL with its `{variables}` replaced by their defaults. */
function serverUrl(server: unknown): string | undefined {
  if (server === null || typeof server !== "object" || typeof (server as DocumentNode).url !== "string") return undefined;
  const variables = ((server as DocumentNode).variables ?? {}) as Record<string, { default?: unknown }>;
  return ((server as DocumentNode).url as string).replace(/\{([^}]+)\}/g, (whole, name: string) =>
    variables[name]?.default !== undefined ? String(variables[name].default) : whole,
  );
}

/**
 * The path every operation of the document sits under: the path part of `servers[0].url`
 * (`/v1.0` for Microsoft Graph, `""` for GitHub), without a trailing slash.
 *
 * @example basePathOf({ openapi: "3.0.3", servers: [{ url: "https://graph.microsoft.com/v1.0" }], paths: {} }); // "/v1.0"
 */
export function basePathOf(document: DocumentNode): string {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const url = serverUrl(servers[0]);
  if (url === undefined) return "";
  let path: string;
  try {
    path = new URL(url, "http://relative.invalid").pathname;
  } catch {
    return "";
  }
  return path.replace(/\/+$/, "");
}

/**
 * The origins the real API answers from, longest first: that of every absolute `servers[*].url`,
 * and `https://<host>` and `http://<host>` for each of the fake's hosts. A link starting with one
 * of them leads to the real API; the fake rewrites it to the base the client used.
 *
 * @example realOriginsOf({ servers: [{ url: "https://graph.microsoft.com/v1.0" }] }, []); // ["https://graph.microsoft.com"]
 */
export function realOriginsOf(document: DocumentNode, hosts: readonly string[]): string[] {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const origins = new Set<string>();
  for (const server of servers) {
    const url = serverUrl(server);
    if (url === undefined || !/^https?:\/\//i.test(url)) continue;
    try {
      origins.add(new URL(url).origin);
    } catch {
      // A server URL with an unfilled variable in its host names no real origin.
    }
  }
  for (const host of hosts) {
    origins.add(`https://${host.toLowerCase()}`);
    origins.add(`http://${host.toLowerCase()}`);
  }
  return [...origins].sort((a, b) => b.length - a.length);
}
