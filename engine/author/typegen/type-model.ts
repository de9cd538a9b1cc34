/**
 * A manifest as one JSON Schema whose named definitions are the types a handler module needs:
 * per MCP fake `<Fake>State`, `<Fake>Args` and `<Fake>Answers`; per API fake `<Fake>State`,
 * `<Fake>Requests` and `<Fake>Responses`; and `World`. Named schemas (the manifest's `schemas`,
 * an OpenAPI document's components) are hoisted into one `$defs`, so each becomes one named type.
 */
import { createHash } from "node:crypto";
import { isSchemaObject, type JsonSchema } from "../contract/index.js";
import { openapiVersion, type DocumentNode, child, deref, pointer } from "../openapi/index.js";
import { standaloneSchema } from "../openapi/index.js";
import type { ApiManifest, EntityManifest, Manifest, ServerManifest } from "../model/index.js";

/** The schema to compile, and what each fake's handler types are made of. */
export interface TypeModel {
  root: Record<string, unknown>;
  fakes: Array<{ id: string; name: string; kind: "mcp" | "api" }>;
  /** sha256 of the root schema: what `validate` compares with a generated file's header. */
  hash: string;
}

/** `crm` → `Crm`, `my-api_v2` → `MyApiV2`: a type name from a fake id. */
export function typeName(id: string): string {
  const name = id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join("");
  return /^[0-9]/.test(name) ? `Fake${name}` : name || "Fake";
}

/** Copies a schema, pointing its local definitions (`#/definitions/X`, `#/$defs/X`) at the root's `$defs`, under `prefix`. */
function hoist(schema: unknown, defs: Record<string, unknown>, prefix: string): unknown {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        const local = /^#\/(?:definitions|\$defs)\/(.+)$/.exec(value);
        out.$ref = local ? `#/$defs/${prefix}${local[1]}` : value;
      } else if ((key === "definitions" || key === "$defs") && isSchemaObject(value)) {
        for (const [name, def] of Object.entries(value)) {
          const hoisted = `${prefix}${name}`;
          if (defs[hoisted] !== undefined) continue;
          // Reserved first, so a recursive definition finds itself already there.
          defs[hoisted] = {};
          const title = safeTitle(name.split(".").at(-1)!);
          defs[hoisted] = { ...(rewrite(def) as Record<string, unknown>), title };
        }
      } else if (key !== "$schema" && key !== "$id") {
        out[key] = rewrite(value);
      }
    }
    return out;
  };
  return rewrite(schema);
}

// Names a generated type must not take: they would shadow the global types the file itself uses.
const GLOBAL_TYPES = new Set([
  "Record",
  "Partial",
  "Required",
  "Readonly",
  "Pick",
  "Omit",
  "Array",
  "Object",
  "String",
  "Number",
  "Boolean",
  "Date",
  "Map",
  "Set",
  "Promise",
  "Error",
  "Function",
  "Symbol",
  "JSON",
  "Response",
  "Request",
  "Headers",
  "URL",
]);

function safeTitle(name: string): string {
  const title = name.replace(/[^A-Za-z0-9_]/g, "_");
  return GLOBAL_TYPES.has(title) ? `${title}Type` : title;
}

const objectOf = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: "object",
  additionalProperties: false,
  properties,
  required,
});

/** A handler sees its arguments with defaults filled: a property with a `default` is always there. */
function defaultsPresent(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(defaultsPresent);
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = key === "const" || key === "default" || key === "enum" ? value : defaultsPresent(value);
  if (isSchemaObject(out.properties)) {
    const filled = Object.entries(out.properties)
      .filter(([, property]) => isSchemaObject(property) && property.default !== undefined)
      .map(([name]) => name);
    if (filled.length > 0) out.required = [...new Set([...((out.required as string[] | undefined) ?? []), ...filled])];
  }
  return out;
}

function entitiesSchema(entities: EntityManifest[], defs: Record<string, unknown>): unknown {
  return objectOf(Object.fromEntries(entities.map((entity) => [entity.name, hoist(entity.schema, defs, "")])));
}

/**
 * Names a tool's own type (`ListTasksArgs`): a schema gets it as its title, and a schema that is
 * only a reference to a definition (zod-to-json-schema's `{ $ref: "#/definitions/parameters" }`)
 * gives it to that definition, so no tool's type is named after a generic title (`Parameters7`).
 */
function titled(schema: unknown, title: string, defs: Record<string, unknown>): unknown {
  const node = schema as Record<string, unknown>;
  const only = Object.keys(node).filter((key) => key !== "title" && key !== "description");
  const local = typeof node.$ref === "string" && only.length === 1 ? /^#\/\$defs\/(.+)$/.exec(node.$ref)?.[1] : undefined;
  if (local !== undefined && isSchemaObject(defs[local])) {
    defs[local] = { ...(defs[local] as object), title };
    return schema;
  }
  return { ...node, title };
}

function serverTypes(server: ServerManifest, defs: Record<string, unknown>, name: string, unique: (base: string, scoped: string) => string): void {
  defs[`${name}State`] = { ...(entitiesSchema(server.entities, defs) as object), title: `${name}State` };
  const args: Record<string, unknown> = {};
  const answers: Record<string, unknown> = {};
  for (const tool of server.tools) {
    const prefix = `${name}.${tool.name}.`;
    const toolType = typeName(tool.name);
    const argsSchema = hoist(defaultsPresent(tool.captured.inputSchema ?? { type: "object" }), defs, prefix);
    args[tool.name] = titled(argsSchema, unique(`${toolType}Args`, `${name}${toolType}Args`), defs);
    const answer = tool.answer;
    const answerSchema = answer.format === "text" ? { type: "string" } : answer.schema === undefined ? {} : hoist(answer.schema, defs, "");
    answers[tool.name] = titled(answerSchema, unique(`${toolType}Result`, `${name}${toolType}Result`), defs);
  }
  defs[`${name}Args`] = { ...objectOf(args), title: `${name}Args` };
  defs[`${name}Answers`] = { ...objectOf(answers), title: `${name}Answers` };
}

function jsonSchemaOf(content: unknown): unknown {
  if (!isSchemaObject(content)) return undefined;
  const key = Object.keys(content).find((type) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) ?? Object.keys(content)[0];
  return key === undefined ? undefined : (content[key] as DocumentNode | undefined)?.schema;
}

function apiTypes(api: ApiManifest, defs: Record<string, unknown>, name: string): void {
  defs[`${name}State`] = { ...(entitiesSchema(api.entities, defs) as object), title: `${name}State` };
  const document = api.document;
  const requests: Record<string, unknown> = {};
  const responses: Record<string, unknown> = {};
  if (document) {
    const version = openapiVersion(document);
    const convert = (schema: unknown, at: string) => hoist(standaloneSchema(document, schema ?? {}, version, at), defs, `${name}.`);
    for (const operation of api.operations) {
      const pathAt = pointer("paths", operation.pathTemplate);
      const pathItem = deref(document, (document.paths as DocumentNode)[operation.pathTemplate], pathAt);
      const opAt = child(pathItem.at, operation.method.toLowerCase());
      const op = (pathItem.node[operation.method.toLowerCase()] ?? {}) as DocumentNode;
      const groups: Record<"path" | "query" | "header", Record<string, unknown>> = { path: {}, query: {}, header: {} };
      const required: Record<"path" | "query" | "header", string[]> = { path: [], query: [], header: [] };
      const declared = [...((pathItem.node.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])];
      declared.forEach((raw, index) => {
        const { node, at } = deref(document, raw, child(opAt, "parameters", index));
        const where = node.in as string;
        if (where !== "path" && where !== "query" && where !== "header") return;
        const key = where === "header" ? String(node.name).toLowerCase() : String(node.name);
        groups[where][key] = convert(node.schema ?? jsonSchemaOf(node.content), child(at, "schema"));
        const schema = isSchemaObject(node.schema) ? node.schema : {};
        // Defaults are filled before a handler runs, so a parameter with one is always there.
        if (node.required === true || where === "path" || schema.default !== undefined) required[where].push(key);
      });
      const request: Record<string, unknown> = {
        params: objectOf(groups.path, required.path),
        query: objectOf(groups.query, required.query),
      };
      let body: unknown = {};
      if (op.requestBody !== undefined) {
        const { node, at } = deref(document, op.requestBody, child(opAt, "requestBody"));
        const schema = jsonSchemaOf(node.content);
        if (schema !== undefined) body = convert(schema, child(at, "content"));
      }
      requests[operation.name] = objectOf({ ...request, body }, op.requestBody === undefined ? ["params", "query"] : ["params", "query", "body"]);
      const answers: unknown[] = [];
      for (const [status, raw] of Object.entries((op.responses ?? {}) as DocumentNode)) {
        const { node, at } = deref(document, raw, child(opAt, "responses", status));
        const schema = jsonSchemaOf(node.content);
        const statusSchema = /^\d{3}$/.test(status) ? { const: Number(status) } : { type: "integer" };
        answers.push(
          objectOf(
            {
              status: statusSchema,
              body: schema === undefined ? {} : convert(schema, child(at, "content")),
              headers: { type: "object", additionalProperties: { type: "string" } },
            },
            ["status"],
          ),
        );
      }
      responses[operation.name] = answers.length > 0 ? { anyOf: answers } : {};
    }
  }
  defs[`${name}Requests`] = { ...objectOf(requests), title: `${name}Requests` };
  defs[`${name}Responses`] = { ...objectOf(responses), title: `${name}Responses` };
}

/**
 * The type model of a loaded manifest.
 *
 * @example const { root, hash } = typeModel(await loadManifest("fakes.yaml"));
 */
export function typeModel(manifest: Manifest): TypeModel {
  const defs: Record<string, unknown> = {};
  const fakes: TypeModel["fakes"] = [];
  const world: Record<string, unknown> = {};
  const taken = new Set<string>();
  const unique = (id: string) => {
    let name = typeName(id);
    for (let n = 2; taken.has(name); n++) name = `${typeName(id)}${n}`;
    taken.add(name);
    return name;
  };
  // A tool's type takes its own name (`ListTasksArgs`), its fake's before it when two fakes share a tool name.
  const toolNames = new Set<string>(["World", "RecipeTypes"]);
  for (const fake of [...manifest.servers, ...manifest.apis]) {
    for (const suffix of ["State", "Args", "Answers", "Fake", "Requests", "Responses", "Api"]) toolNames.add(`${typeName(fake.id)}${suffix}`);
  }
  const toolName = (base: string, scoped: string) => {
    let name = toolNames.has(base) || GLOBAL_TYPES.has(base) ? scoped : base;
    for (let n = 2; toolNames.has(name); n++) name = `${scoped}${n}`;
    toolNames.add(name);
    return name;
  };
  for (const server of manifest.servers) {
    const name = unique(server.id);
    serverTypes(server, defs, name, toolName);
    fakes.push({ id: server.id, name, kind: "mcp" });
    world[server.id] = { $ref: `#/$defs/${name}State` };
  }
  for (const api of manifest.apis) {
    const name = unique(api.id);
    apiTypes(api, defs, name);
    fakes.push({ id: api.id, name, kind: "api" });
    world[api.id] = { $ref: `#/$defs/${name}State` };
  }
  defs.World = { ...objectOf(world), title: "World" };
  const root = {
    title: "RecipeTypes",
    ...objectOf(
      Object.fromEntries(
        Object.keys(defs)
          .filter((key) => !key.includes("."))
          .map((key) => [key, { $ref: `#/$defs/${key}` }]),
      ),
    ),
    $defs: defs,
  };
  return { root, fakes, hash: createHash("sha256").update(canonical(root)).digest("hex") };
}

/** JSON with sorted keys, so the hash does not depend on key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export type { JsonSchema };
