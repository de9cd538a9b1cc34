/**
 * Check (a): the fake serves the Recipe's allowed tools from its capture, in captured order,
 * exactly as captured: tools/list read with the official client equals the capture filtered
 * by the allow-list.
 */
import { isDeepStrictEqual } from "node:util";
import type { CapturedTool } from "../../author/contract/index.js";
import { excerpt, failOn } from "./check-failure.js";
import { type RecipeContext, withStarted } from "./recipe-context.js";

/** A tool as JSON, with a captured `taskSupport: "forbidden"` dropped when the served tool has no `execution` (the same thing). */
function comparable(tool: unknown, served?: Record<string, unknown>): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(tool)) as Record<string, unknown>;
  const execution = copy.execution as { taskSupport?: string } | undefined;
  if (served && served.execution === undefined && execution?.taskSupport === "forbidden" && Object.keys(execution).length === 1) delete copy.execution;
  return copy;
}

/** The first path at which two JSON values differ, such as `inputSchema.required`. */
export function firstDifference(a: unknown, b: unknown, path = ""): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (a && b && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
      if (found !== undefined) return found;
    }
  }
  return path || "(the whole tool)";
}

function at(value: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), value);
}

/**
 * Fails, naming each difference, when the fake's tools/list is not its allowed captured tools
 * in captured order.
 *
 * @example await checkServedTools(context, "crm");
 */
export async function checkServedTools(context: RecipeContext, id: string): Promise<void> {
  const server = context.servers[id];
  const allowed = context.allowed(id);
  const captured = new Map<string, CapturedTool>(server.captured.map((tool) => [tool.name, tool]));
  const expected = server.captured.filter((tool) => allowed.includes(tool.name));
  const served = await withStarted(context, id, 1, async ([{ client }]) => (await client.listTools()).tools as Array<Record<string, unknown>>);
  const servedNames = served.map((tool) => String(tool.name));
  const problems: string[] = [];
  for (const name of allowed.filter((n) => !captured.has(n)))
    problems.push(`"${name}" is allowed but not captured: capture the server again, or stop allowing it`);
  for (const tool of expected.filter((t) => !servedNames.includes(t.name))) {
    problems.push(`"${tool.name}" is allowed (${context.allowListSource(id)}) but not served: list it under servers.${id}.tools with its handler`);
  }
  for (const name of servedNames.filter((n) => !allowed.includes(n))) {
    problems.push(`"${name}" is served but not allowed by ${context.allowListSource(id)}: stop serving it, or allow it in the Recipe`);
  }
  const common = expected.map((t) => t.name).filter((n) => servedNames.includes(n));
  const servedOrder = servedNames.filter((n) => common.includes(n));
  if (servedOrder.join("\n") !== common.join("\n")) {
    problems.push(`the tools are served in the order [${servedOrder.join(", ")}], not the captured order [${common.join(", ")}]`);
  }
  for (const tool of served) {
    const name = String(tool.name);
    const capture = captured.get(name);
    if (!capture || !common.includes(name)) continue;
    const difference = firstDifference(comparable(tool), comparable(capture, tool));
    if (difference !== undefined) {
      problems.push(
        `"${name}" is served unlike its capture at ${difference}: served ${excerpt(at(tool, difference))}, captured ${excerpt(at(capture, difference))}`,
      );
    }
  }
  failOn(
    problems,
    `${id}'s tools/list is not the Recipe's allowed tools as captured`,
    "serve each allowed tool exactly as the capture holds it (re-capture the real server rather than editing a served tool), in captured order, and keep the fake's tools equal to the Recipe's allow-list",
  );
}
