import { expect } from "vitest";
import {
  type CompiledJsonataHandler,
  type JsonataHandlerInput,
  type JsonataHandlerSpec,
  compileJsonataHandler,
} from "../../engine/author/handlers/jsonata-index.js";

/** A handler that must compile; the test fails with its errors otherwise. */
export function handlerOf(spec: JsonataHandlerSpec): CompiledJsonataHandler {
  const compiled = compileJsonataHandler(spec);
  if (!compiled.ok) expect.fail(`expected the handler to compile: ${JSON.stringify(compiled.errors)}`);
  return compiled.handler;
}

/** A call's input with a notes fake's state; `logged` collects what `$log` received. */
export function inputOf(overrides: Partial<JsonataHandlerInput> = {}): JsonataHandlerInput & { logged: unknown[] } {
  const logged: unknown[] = [];
  return {
    args: {},
    state: { notes: [{ id: "note-1", title: "Kickoff", tags: ["a", "b"] }], counter: 1 },
    world: { notes: { notes: [] }, calendar: { events: [{ id: "e1" }] } },
    now: "2025-03-14T09:00:00.000Z",
    scenario: "quiet",
    labelId: (label) => `id:${label}`,
    log: (value) => logged.push(value),
    ...overrides,
    logged,
  };
}

/**
 * Everything about a value that jsonata could change: own keys of arrays (a `sequence` flag)
 * and objects, enumerable or not, symbols included, recursively.
 */
export function shapeOf(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  return Reflect.ownKeys(value).map((key) => [String(key), shapeOf((value as Record<PropertyKey, unknown>)[key])]);
}
