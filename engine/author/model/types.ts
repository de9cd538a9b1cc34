import type { SourceLocation } from "../source/index.js";
import type { AnswerSpec, CapturedTool } from "../contract/index.js";
import type { OperationHandler, ToolHandler } from "../handlers/index.js";
import type { CompiledJsonataHandler } from "../handlers/index.js";
import type { WorldSource } from "../world/index.js";

export type { SourceLocation } from "../source/index.js";

export type JsonSchema = Record<string, unknown> | boolean;

export type { CapturedTool };

export interface EntityManifest {
  name: string;
  description?: string;
  /** The entity's schema with `#/schemas/...` references resolved. */
  schema: JsonSchema;
  default?: unknown;
  source: SourceLocation;
}

/** A tool's handler: a compiled JSONata handler or a function from the fake's handlers module. */
export type HandlerManifest<F> =
  | { kind: "jsonata"; jsonata: CompiledJsonataHandler; source: SourceLocation }
  | { kind: "module"; fn: F; file: string; source: SourceLocation };

export interface ToolManifest {
  name: string;
  /** The captured tool, served as it is. */
  captured: CapturedTool;
  kind: "stateful" | "static";
  reads: string[];
  writes: string[];
  /** The successful answer: declared, or structured content for a tool with an outputSchema. */
  answer: AnswerSpec;
  handler: HandlerManifest<ToolHandler>;
  /** When the tool is listed: from the world's Nth call, or until it (a changing tool list). */
  listed?: { afterCalls?: number; untilCalls?: number };
  source: SourceLocation;
}

export interface ServerManifest {
  id: string;
  description?: string;
  /** The Recipe cannot run without it: a subset of the fakes that leaves it out refuses to start. */
  required?: boolean;
  /** Every captured tool, served or not, in captured order. */
  captured: CapturedTool[];
  /** The served tools, in captured order. */
  tools: ToolManifest[];
  entities: EntityManifest[];
  /** Tool-selection areas: area name → served tool names (a tool in none scores under the server's id). */
  areas?: Record<string, string[]>;
  handlersFile?: string;
  observedFile?: string;
  timeoutMs: number;
  /** The captured server's identity, announced in `initialize` (its id at 1.0.0 when not captured). */
  serverInfo?: { name: string; version: string; [key: string]: unknown };
  /** The captured server's instructions, sent in `initialize`. */
  instructions?: string;
  /** How a call to a tool the fake does not serve is answered (`protocol-error` by default). */
  unknownTool?: "protocol-error" | "error-result";
  /** The texts of the errors the engine answers, as templates (`{{tool}}`, `{{message}}`, `{{path}}`, `{{issue}}`): today's texts when unset. */
  errorTexts?: { invalidArguments?: string; unknownTool?: string };
  /** Served resources and resource templates, in captured order. */
  resources?: ResourceManifest[];
  /** Served prompts, in captured order. */
  prompts?: PromptManifest[];
  /** Declares the logging capability: `ctx.log` is also sent to the client. */
  logging?: boolean;
  /** Serves 2025-era clients with MCP sessions (needed to ask the client or push to subscribers). */
  sessions?: boolean;
  /** Items per page of every list; all on one page when unset. */
  pageSize?: number;
  source: SourceLocation;
}

/** How one argument is completed: a list filtered by what the client typed, or a JSONata expression. */
export type CompletionManifest = { kind: "list"; values: string[] } | { kind: "jsonata"; jsonata: CompiledJsonataHandler };

/** One served prompt with its messages: a template, or a handler whose value is the messages. */
export interface PromptManifest {
  name: string;
  /** The captured prompt, listed as it is. */
  captured: Record<string, unknown>;
  reads: string[];
  handler: { kind: "template"; messages: Array<Record<string, unknown>> } | HandlerManifest<ToolHandler>;
  /** Completions by argument name. */
  complete?: Record<string, CompletionManifest>;
  source: SourceLocation;
}

/** One served resource (`uri`) or resource template (`uriTemplate`) with its handler. */
export interface ResourceManifest {
  /** The captured entry, listed as it is. */
  captured: Record<string, unknown>;
  /** The uri, or the uriTemplate of a template. */
  key: string;
  template: boolean;
  reads: string[];
  handler: HandlerManifest<ToolHandler>;
  /** Completions by template variable. */
  complete?: Record<string, CompletionManifest>;
  source: SourceLocation;
}

export interface OperationManifest {
  /** The operationId, or `METHOD /template` where the document gives none. */
  name: string;
  method: string;
  pathTemplate: string;
  reads: string[];
  writes: string[];
  handler: HandlerManifest<OperationHandler>;
  source: SourceLocation;
}

export interface ApiManifest {
  id: string;
  description?: string;
  /** The Recipe cannot run without it: a subset of the fakes that leaves it out refuses to start. */
  required?: boolean;
  openapiFile?: string;
  /** The parsed OpenAPI document. */
  document?: Record<string, unknown>;
  emulate?: string;
  hosts: string[];
  handlersFile?: string;
  timeoutMs: number;
  entities: EntityManifest[];
  operations: OperationManifest[];
  capture?: Record<string, unknown>;
  source: SourceLocation;
}

export interface StubOutcome {
  answer?: unknown;
  /** MCP content blocks answered as they are. */
  content?: Array<Record<string, unknown>>;
  error?: string;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  /** With `delayMs`: this many progress notifications spread over the delay (MCP fakes). */
  progress?: number;
  pass?: true;
}

export interface StubManifest {
  id: string;
  /** The fake's id. */
  fake: string;
  /** The tool or operation name. */
  target: string;
  match?: Record<string, JsonSchema>;
  outcomes: StubOutcome[];
  source: SourceLocation;
}

export interface FaultManifest {
  fake: string;
  /** A tool or operation name, or "*" for all of the fake's. */
  target: string;
  latencyMs?: number | [number, number];
  http?: "empty_response" | "connection_reset" | "malformed_body";
  rate: number;
  seed: number;
  source: SourceLocation;
}

export interface ScenarioManifest {
  name: string;
  description?: string;
  extends?: string;
  /** This scenario's own stubs followed by those it inherits. */
  stubs: StubManifest[];
  /** This scenario's faults and those it inherits. */
  faults: FaultManifest[];
  source: SourceLocation;
}

export interface InvariantManifest {
  name: string;
  expression: string;
  source: SourceLocation;
}

/** A loaded, checked, normalised fakes.yaml: what the later stages consume. */
export interface Manifest {
  /** Absolute path of the manifest file. */
  file: string;
  /** Its folder: every path in it is relative to this. */
  dir: string;
  servers: ServerManifest[];
  apis: ApiManifest[];
  schemas: Record<string, JsonSchema>;
  scenarios: ScenarioManifest[];
  defaultScenario: string;
  invariants: InvariantManifest[];
  redact: string[];
  /** Builds each scenario's world at a clock. */
  world: WorldSource;
  /** The shared JSONata functions' sources, by name (`functions:`), when it declares some. */
  functions?: Record<string, string>;
}
