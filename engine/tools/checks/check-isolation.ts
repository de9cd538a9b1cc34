/**
 * Check (e): two started instances of the fakes share no state. Their states share no object;
 * calls to one leave the other as it was; and the same calls, made to both, leave both in the
 * same state. The calls are the recording's calls to the fake when a recording is given, else
 * one call made up from each writing tool's input schema.
 */
import { filePath } from "../testing/index.js";
import { changedEntities, failOn, jsonOf } from "./check-failure.js";
import { readCalls } from "./calls-file.js";
import { isRecordFile, readRecording } from "./recorded-calls.js";
import type { RecipeContext } from "./recipe-context.js";
import { validCall } from "./check-bad-calls.js";
import { rawCall, type Started, withStarted } from "./recipe-context.js";

/** The first path at which two values hold the very same object. */
function sharedObject(a: unknown, b: unknown): string | undefined {
  const seen = new Map<object, string>();
  const collect = (value: unknown, path: string) => {
    if (typeof value !== "object" || value === null || seen.has(value)) return;
    seen.set(value, path);
    for (const [key, child] of Object.entries(value)) collect(child, `${path}.${key}`);
  };
  collect(a, "");
  let found: string | undefined;
  const search = (value: unknown, path: string, visited: Set<object>) => {
    if (found !== undefined || typeof value !== "object" || value === null || visited.has(value)) return;
    if (seen.has(value)) {
      found = path || "(the whole state)";
      return;
    }
    visited.add(value);
    for (const [key, child] of Object.entries(value)) search(child, `${path}.${key}`, visited);
  };
  search(b, "", new Set());
  return found?.replace(/^\./, "");
}

type Call = { tool: string; args: Record<string, unknown> };

function callsFor(context: RecipeContext, id: string): { calls: Call[]; from: string } {
  const recording = context.options.record ?? context.options.recording;
  if (recording !== undefined) {
    const file = filePath(recording);
    // A record's lines (API calls among them), or a calls list as replay reads it (YAML or JSON).
    const calls = isRecordFile(file)
      ? readRecording(file)
          .filter((call) => call.server === id)
          .map((call) => ({ tool: call.tool, args: call.args ?? {} }))
      : readCalls(file)
          .filter((call) => (call.server === undefined || call.server === id) && call.read === undefined)
          .map((call) => ({ tool: call.tool, args: call.args }));
    return { calls, from: `the ${calls.length} calls ${file} records` };
  }
  const calls = context.servers[id].tools
    .filter((tool) => tool.writes.length > 0)
    .map((tool) => ({ tool: tool.name, args: validCall(tool.captured.inputSchema ?? {}) }));
  return { calls, from: `a call to each writing tool (${calls.map((c) => c.tool).join(", ") || "none"})` };
}

async function replay(started: Started, calls: Call[]): Promise<void> {
  for (const call of calls) await rawCall(started.client, call.tool, call.args);
  await started.services.idle();
}

/**
 * Fails when two instances share state, naming the entities and what to change.
 *
 * @example await checkIsolation(context, "mail");
 */
export async function checkIsolation(context: RecipeContext, id: string): Promise<void> {
  const { calls, from } = callsFor(context, id);
  const problems: string[] = [];
  await withStarted(context, id, 2, async ([one, two]) => {
    const shared = sharedObject(one.services.states[id], two.services.states[id]);
    if (shared !== undefined) problems.push(`the two instances' states hold the same object at ${shared}`);
    const untouched = jsonOf(two.services.states[id]);
    await replay(one, calls);
    const changed = changedEntities(JSON.parse(untouched), two.services.states[id]);
    if (changed.length > 0) problems.push(`${from}, made to one instance, changed the other's ${changed.join(", ")}`);
    await replay(two, calls);
    const differ = changedEntities(one.services.states[id], two.services.states[id]);
    if (differ.length > 0) problems.push(`${from}, made to each instance, left them with different ${differ.join(", ")}`);
  });
  failOn(
    problems,
    `${id} shares state between two started instances`,
    "keep every piece of a fake's state in the state its handlers are given (never in a module variable or a closure shared by starts), build a fresh world on every start, and derive ids from the state or labelId, not from a counter outside it",
  );
}
