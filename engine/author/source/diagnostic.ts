/**
 * A problem found in a manifest: where it is, what it is (a stable code), and what to do.
 * Every stage reports these and keeps going, so a user sees every problem at once.
 */
export interface Diagnostic {
  code: DiagnosticCode;
  severity: "error" | "warning";
  message: string;
  /** One line: what to do about it. */
  hint?: string;
  /** Absolute path of the file the problem is in. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** Where in the manifest, dotted: `servers.notes.tools.create-note.jsonata.set.notes`. */
  path: string;
}

/** Every code `validate` reports, with the hint shown when the check gives none of its own. */
export const DIAGNOSTIC_CODES = {
  E_IO: "Check the path; it is relative to the manifest's folder.",
  E_YAML_SYNTAX: "Fix the YAML syntax at this position.",
  E_YAML_DUPLICATE_KEY: "Remove or rename one of the two keys.",
  E_SCHEMA: "See eval-simulate.schema.json (or your editor's hover) for what this key takes.",
  E_UNKNOWN_KEY: "Remove the key or fix its spelling.",
  E_MISSING_KEY: "Add the key.",
  E_INVALID_ID: "Ids use lowercase letters, digits and dashes, starting with a letter or digit.",
  E_DUPLICATE_ID: "Give every server and api a different id.",
  E_FILE_PARSE: "Fix the file's JSON or YAML.",
  E_CAPTURE_INVALID: "A capture holds a tools/list result: { tools: [{ name, inputSchema, ... }] } or the bare array.",
  E_UNKNOWN_TOOL: "List only tools the capture holds; re-capture the server if it gained one.",
  E_ANSWER_MISSING: "Add `answer: { format: json | toon | prefixed_json | text, schema: ... }`.",
  E_ANSWER_FORBIDDEN: "Remove `answer`: a tool with an outputSchema answers with structured content.",
  E_ANSWER_INVALID: "Fix the answer: `prefix` goes with prefixed_json only, and text answers take no schema.",
  E_UNKNOWN_ENTITY: "Name an entity declared under this fake's `entities`.",
  E_SET_NOT_WRITTEN: "Add the entity to the tool's `writes`, or stop setting it: the entity map is what verify reads.",
  E_WRITES_READ_ONLY: "Remove `writes`, or the captured tool is not read-only after all: re-capture it.",
  E_STATIC_TOOL: "Make the tool `stateful`, or stop it reading what a tool writes or a scenario fills.",
  E_HANDLER_MISSING: "Add `jsonata`, or an entry of the same name in the fake's handlers module.",
  E_HANDLER_DUPLICATE: "Keep one handler: remove `jsonata`, or the handlers module's entry.",
  E_HANDLER_MODULE: "The handlers module must load and default-export defineHandlers({ ... }).",
  E_JSONATA_SYNTAX: "Fix the JSONata expression at this position.",
  E_JSONATA_BLOCK: "Fix the JSONata block.",
  E_JSON_SCHEMA: "Fix the JSON Schema; it must compile.",
  E_SCHEMA_REF: "Refer to a schema under `schemas` as `#/schemas/<name>`.",
  E_UNKNOWN_SCENARIO: "Name a scenario declared under `scenarios`.",
  E_SCENARIO_CYCLE: "Break the cycle of `extends`.",
  E_SCENARIO_DEFAULT: "Mark exactly one scenario `default: true`.",
  E_UNKNOWN_FAKE: "Name a server or api declared in this manifest.",
  E_WORLD_SCHEMA: "Make the scenario's value fit the entity's schema.",
  E_WORLD_VALUE: 'Use `{ $date: "-3d" }`, `{ $date: "-1d", at: "09:00" }`, `{ $id: "label" }` or `{ $expr: "..." }`.',
  E_WORLD_MODULE: "The world module must export world(scenario, clock) and SCENARIOS.",
  E_INVARIANT: "Fix the scenario's state, or the invariant.",
  E_STUB: "Fix the stub.",
  E_OPENAPI: "Fix the OpenAPI document, or capture it again.",
  E_UNKNOWN_OPERATION: "Name an operation of the OpenAPI document, by operationId or `METHOD /path`.",
  E_UNSUPPORTED_TOOL: "This tool cannot be served as captured.",
  E_UNKNOWN_RESOURCE: "Name a resource `uri` or template `uriTemplate` the capture lists.",
  E_UNKNOWN_PROMPT: "Name a prompt the capture's `prompts` lists.",
  E_UNKNOWN_ARGUMENT: "Name an argument the captured prompt declares, or a variable of the resource template.",
  E_FAKES: "Point `fakes` at a valid fakes.yaml, relative to the evals file.",
  E_PATTERN: "Fix the regular expression: it must compile (new RegExp) and run on RE2, the judge's linear-time engine (no lookaround, no backreferences).",
  E_CASE: "Fix the case: see eval-simulate.evals.schema.json (or your editor's hover).",
  E_SELECTION: "Add or change fixtures under `selection`, or the limits under `selectionOptions`.",
  W_NESTED_DEFAULT: "Only top-level defaults are filled; a nested default is documentation only.",
  E_NON_FINITE: "Write a finite number: JSON has no Infinity or NaN, and a number past ±1.8e308 reads as Infinity.",
  W_UNUSED_HANDLER: "Remove the entry, or list the tool under `tools` so it is served.",
  W_TYPES_STALE: "Run `eval-simulate types` again, so tsc checks the handlers against the manifest as it is.",
  W_PATTERN_FALLBACK:
    "RE2 runs patterns in linear time; this one runs on JavaScript's backtracking engine. Rewrite it without backreferences or lookaround if you can.",
  W_NUMERIC_KEYS:
    'Keep the order you need another way: records in an array (key them with `key:` in state.diff), or keys that are not integers (`p15`, `"015"`); or ignore this if no answer depends on the order.',
  W_UNDECLARED_READ: "List the entity in the tool's `reads` (or `writes`): the judge, the inspector and the checks read those lists as the tool's entity map.",
  W_UNKNOWN_ARGUMENT: "Read an argument the tool's captured input schema declares; an undeclared one is never sent by a client that follows the schema.",
} as const;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** A manifest that cannot be loaded: carries every diagnostic. */
export class ManifestError extends Error {
  readonly code = "E_MANIFEST";
  constructor(readonly diagnostics: Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    super(
      `[eval-simulate] the manifest has ${errors.length} error${errors.length === 1 ? "" : "s"}:\n` +
        errors.map((d) => `  ${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`).join("\n"),
    );
    this.name = "ManifestError";
  }
}

/** Edit distance counting a swap of two neighbours as one edit (optimal string alignment). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The nearest of `candidates` to `name`, when near enough to be a typo.
 *
 * @example didYouMean("tols", ["tools", "entities"]) // "tools"
 */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  const allowed = Math.max(1, Math.floor(Math.max(name.length, best?.length ?? 0) / 3));
  return best !== undefined && bestDistance <= allowed ? best : undefined;
}

/** ` Did you mean "x"?` or nothing. */
export function suggestion(name: string, candidates: Iterable<string>): string {
  const near = didYouMean(name, candidates);
  return near === undefined ? "" : ` Did you mean "${near}"?`;
}
