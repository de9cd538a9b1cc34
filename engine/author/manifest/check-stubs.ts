import type { ApiManifest, ServerManifest, StubOutcome } from "../model/index.js";
import { contentBlockProblems } from "../contract/index.js";
import type { ManifestDocument } from "../../../schema/manifest.js";
import { createSchemaCompiler } from "../contract/index.js";
import { suggestion } from "../source/index.js";
import { compileNotingPatterns, type LoadContext } from "./load-context.js";
import type { PathSegment } from "../source/index.js";
import type { FaultManifest, JsonSchema, StubManifest } from "../model/index.js";

/** What the scenario checks know of the fakes. */
export interface FakeIndex {
  servers: ServerManifest[];
  apis: ApiManifest[];
  /** Every declared fake id, loaded or not (a fake with errors is still a known name). */
  ids: string[];
  /** Each fake's declared tools or operations, checked or not: stubs and faults may name them. */
  declared: Map<string, { kind: "tool" | "operation"; names: string[] }>;
}

type StubDocument = NonNullable<NonNullable<ManifestDocument["scenarios"]>[string]["stubs"]>[number];

/** The JSON Schema keywords a stub's `match` may use: a reference-free subset, cheap to check. */
const MATCH_KEYWORDS = new Set([
  "type",
  "const",
  "enum",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "items",
  "contains",
  "minItems",
  "maxItems",
  "properties",
  "required",
  "additionalProperties",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "title",
  "description",
]);
/** Keywords whose value is a map of schemas, or a list of them. */
const SCHEMA_MAPS = new Set(["properties"]);
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf"]);
const SCHEMA_VALUES = new Set(["items", "contains", "additionalProperties", "not", "if", "then", "else"]);

const matchCompiler = createSchemaCompiler({ defaultDialect: "2020-12" });

/** Limits that keep a scenario's stubs cheap to match on every call. */
export const STUB_LIMITS = { rules: 100, depth: 32, nodes: 20_000, characters: 1_000_000 } as const;

function countNodes(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((n: number, item) => n + countNodes(item), 0);
  if (value && typeof value === "object") return 1 + Object.values(value).reduce((n: number, item) => n + countNodes(item), 0);
  return 1;
}

function checkMatchSchema(schema: unknown, path: PathSegment[], depth: number, context: LoadContext): void {
  if (typeof schema === "boolean") return;
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) {
    context.report.error("E_STUB", path, "a match constraint is a JSON Schema object or a boolean");
    return;
  }
  if (depth > STUB_LIMITS.depth) {
    context.report.error("E_STUB", path, `the match nests deeper than ${STUB_LIMITS.depth} levels`);
    return;
  }
  for (const [keyword, value] of Object.entries(schema)) {
    const at = [...path, keyword];
    if (!MATCH_KEYWORDS.has(keyword)) {
      context.report.error("E_STUB", at, `"${keyword}" is not supported in a stub's match.${suggestion(keyword, MATCH_KEYWORDS)}`, {
        key: true,
        hint: "match uses types, scalar const/enum, string patterns and bounds, numeric bounds, items/contains, properties/required/additionalProperties, and allOf/anyOf/oneOf/not/if/then/else.",
      });
    } else if (
      (keyword === "const" && value !== null && typeof value === "object") ||
      (keyword === "enum" && (!Array.isArray(value) || value.some((v) => v !== null && typeof v === "object")))
    ) {
      context.report.error("E_STUB", at, `${keyword} in a stub's match takes scalars only; match structured values with properties or items`);
    } else if (keyword === "pattern") {
      try {
        new RegExp(String(value), "u");
      } catch (error) {
        context.report.error("E_STUB", at, `the pattern is not a valid regular expression: ${(error as Error).message}`);
      }
    } else if (SCHEMA_MAPS.has(keyword) && value && typeof value === "object") {
      for (const [name, inner] of Object.entries(value)) checkMatchSchema(inner, [...at, name], depth + 1, context);
    } else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      value.forEach((inner, i) => checkMatchSchema(inner, [...at, i], depth + 1, context));
    } else if (SCHEMA_VALUES.has(keyword)) {
      checkMatchSchema(value, at, depth + 1, context);
    }
  }
}

/**
 * Splits a stub's or fault's `<fake>/<tool or operation>` and reports a fake, tool or operation
 * that does not exist (`*` stands for all of a fake's).
 */
function checkTarget(what: "stub" | "fault", name: string, path: PathSegment[], fakes: FakeIndex, context: LoadContext) {
  const slash = name.indexOf("/");
  const [fake, target] = [name.slice(0, slash), name.slice(slash + 1)];
  const server = fakes.servers.find((s) => s.id === fake);
  const api = fakes.apis.find((a) => a.id === fake);
  // Declared names count even when their tool failed its own checks: that error is reported once.
  const declared = fakes.declared.get(fake) ?? { kind: "tool", names: [] };
  if (!fakes.ids.includes(fake)) {
    context.report.error("E_STUB", path, `the ${what} targets "${fake}", which is not a server or api.${suggestion(fake, fakes.ids)}`);
  } else if (target === "*" && what === "fault") {
    // Every tool or operation of the fake.
  } else if (api?.emulate) {
    // A built-in's operations are its own.
  } else if (!declared.names.includes(target) && !api?.operations.some((op) => `${op.method} ${op.pathTemplate}` === target)) {
    context.report.error("E_STUB", path, `"${fake}" serves no ${declared.kind} "${target}".${suggestion(target, declared.names)}`);
  }
  return { fake, target, server };
}

/** Checks a scenario's stubs: what they target, their match and their outcomes. */
export function checkStubs(scenario: string, stubs: StubDocument[], fakes: FakeIndex, context: LoadContext): StubManifest[] {
  const path = ["scenarios", scenario, "stubs"];
  if (stubs.length > STUB_LIMITS.rules) {
    context.report.error("E_STUB", path, `scenario "${scenario}" has ${stubs.length} stubs; the limit is ${STUB_LIMITS.rules}`, { key: true });
  }
  const nodes = countNodes(stubs);
  const characters = JSON.stringify(stubs).length;
  if (nodes > STUB_LIMITS.nodes || characters > STUB_LIMITS.characters) {
    context.report.error(
      "E_STUB",
      path,
      `scenario "${scenario}"'s stubs hold ${nodes} JSON nodes and ${characters} characters; the limits are ${STUB_LIMITS.nodes} and ${STUB_LIMITS.characters}`,
      { key: true },
    );
  }
  const ids = new Set<string>();
  const checked: StubManifest[] = [];
  stubs.forEach((stub, index) => {
    const at = [...path, index];
    if (ids.has(stub.id)) context.report.error("E_STUB", [...at, "id"], `two stubs of scenario "${scenario}" have the id "${stub.id}"`);
    ids.add(stub.id);
    const { fake, target, server } = checkTarget("stub", stub.tool, [...at, "tool"], fakes, context);
    if ((stub.outcome === undefined) === (stub.outcomes === undefined)) {
      context.report.error("E_STUB", at, "a stub has exactly one of `outcome` or `outcomes`");
    }
    const outcomes = stub.outcomes ?? (stub.outcome ? [stub.outcome] : []);
    outcomes.forEach((outcome, i) => {
      const kinds = ["answer", "content", "error", "status", "pass"].filter((k) => (outcome as Record<string, unknown>)[k] !== undefined);
      const where = stub.outcomes ? [...at, "outcomes", i] : [...at, "outcome"];
      // `delayMs` alone waits, then runs the handler as `pass: true` would.
      if (kinds.length > 1 || (kinds.length === 0 && outcome.delayMs === undefined)) {
        context.report.error(
          "E_STUB",
          where,
          `an outcome is one of answer, content, error, status (+body, headers) or pass: true, with delayMs or not; this one has ${kinds.length ? kinds.join(" and ") : "none"}`,
        );
      } else if ((outcome.body !== undefined || outcome.headers !== undefined) && kinds[0] !== "status") {
        context.report.error("E_STUB", where, "body and headers go with status (API fakes)");
      } else if (kinds[0] === "status" && server) {
        context.report.error("E_STUB", where, "status goes with API fakes; an MCP stub answers with answer, content or error");
      } else if (kinds[0] === "content" && !server) {
        context.report.error("E_STUB", where, "content goes with MCP fakes; an API stub answers with status and body");
      } else if (kinds[0] === "content") {
        for (const problem of contentBlockProblems(outcome.content)) context.report.error("E_STUB", [...where, "content"], problem);
      }
    });
    const errorsBefore = context.report.diagnostics.length;
    for (const [name, schema] of Object.entries(stub.match ?? {})) checkMatchSchema(schema, [...at, "match", name], 1, context);
    const match = stub.match;
    if (match && context.report.diagnostics.length === errorsBefore) {
      // Compiled as the runtime compiles it, so a stub that validates also serves.
      try {
        compileNotingPatterns(() => matchCompiler.compile({ type: "object", properties: match, required: Object.keys(match) }), [...at, "match"], context);
      } catch (error) {
        context.report.error("E_STUB", [...at, "match"], `the match does not compile: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`);
      }
    }
    checked.push({
      id: stub.id,
      fake,
      target,
      match: stub.match as Record<string, JsonSchema> | undefined,
      outcomes: outcomes as StubOutcome[],
      source: context.report.location(at),
    });
  });
  return checked;
}

type FaultDocument = NonNullable<NonNullable<ManifestDocument["scenarios"]>[string]["faults"]>[number];

/** Checks a scenario's faults: what they target, and that each does something. */
export function checkFaults(scenario: string, faults: FaultDocument[], fakes: FakeIndex, context: LoadContext): FaultManifest[] {
  return faults.flatMap((fault, index) => {
    const at = ["scenarios", scenario, "faults", index];
    const { fake, target, server } = checkTarget("fault", fault.tool, [...at, "tool"], fakes, context);
    if (fault.latencyMs === undefined && fault.http === undefined) {
      context.report.error("E_STUB", at, "a fault needs latencyMs, http, or both");
    }
    if (Array.isArray(fault.latencyMs) && fault.latencyMs[0] > fault.latencyMs[1]) {
      context.report.error("E_STUB", [...at, "latencyMs"], `the latency range [${fault.latencyMs.join(", ")}] starts after it ends`);
    }
    if (fault.http && server) {
      context.report.error("E_STUB", [...at, "http"], "HTTP faults go with API fakes; for an MCP tool, stub an error outcome instead");
    }
    return [
      {
        fake,
        target,
        ...(fault.latencyMs === undefined ? {} : { latencyMs: fault.latencyMs as number | [number, number] }),
        ...(fault.http === undefined ? {} : { http: fault.http }),
        rate: fault.rate ?? 1,
        seed: fault.seed ?? 1,
        source: context.report.location(at),
      },
    ];
  });
}
