/**
 * The workspace example's selection fixtures as a scripted provider needs them: each fixture's
 * query (read from evals.yaml) and the tools a perfect router calls for it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { ScriptedRequest } from "../support/scripted-provider.js";
import { ROOT } from "../support/examples.js";

const evals = parse(readFileSync(join(ROOT, "examples/workspace/evals.yaml"), "utf8")) as {
  selection: Array<{ id: string; query: string; expectedTools: string[] }>;
};

export const WORKSPACE_PICKS = {
  queries: Object.fromEntries(evals.selection.map((f) => [f.id, f.query])),
  /** The first expected tool of each fixture: a perfect pick. */
  right: Object.fromEntries(evals.selection.map((f) => [f.id, [f.expectedTools[0]]])),
};

/** The user's query in a provider request (OpenAI chat completions or Anthropic messages). */
export function queryOf(request: ScriptedRequest): string {
  const messages = (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  const user = messages.find((m) => m.role === "user");
  const content = user?.content;
  if (typeof content === "string") return content;
  return (content as Array<{ type: string; text?: string }>)
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");
}
