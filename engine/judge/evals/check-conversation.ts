/**
 * The checks of a conversation case beyond its schema: the user's fakes and tools are the
 * manifest's (and the case's), every scripted turn's calls name served tools, the transcript
 * assertions compile, and the conversation has a first message and one way to script the agent.
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import type { LoadedFakes } from "../../author/fakes/index.js";
import { suggestion } from "../../author/source/index.js";
import type { PathSegment, Report } from "../../author/source/index.js";

type Path = PathSegment[];

/** What the evals file's own checks lend this one. */
export interface ConversationCheckScope {
  report: Report;
  loaded: LoadedFakes;
  checkTool(report: Report, path: Path, name: unknown): void;
  checkExpression(report: Report, path: Path, source: unknown): void;
}

/**
 * Checks `c.user`, `c.turns` and `c.expect.transcript`.
 *
 * @example checkConversation(c, ["cases", 0], { report, loaded, checkTool, checkExpression })
 */
export function checkConversation(c: EvalCase, at: Path, scope: ConversationCheckScope): void {
  const { report, loaded } = scope;
  const user = c.user;
  if (user) {
    const ids = Object.keys(loaded.fakes);
    for (const [j, id] of (user.fakes ?? []).entries()) {
      if (typeof id !== "string") continue;
      if (!Object.hasOwn(loaded.fakes, id))
        report.error("E_UNKNOWN_FAKE", [...at, "user", "fakes", j], `no fake "${id}" in the fakes manifest.${suggestion(id, ids)}`, {
          hint: `Fakes: ${ids.join(", ")}.`,
        });
      else if (c.fakes && !c.fakes.includes(id))
        report.error("E_CASE", [...at, "user", "fakes", j], `the user's fake "${id}" is not among the case's fakes (${c.fakes.join(", ")})`, {
          hint: "Add it to the case's `fakes`: the session serves only those.",
        });
    }
    for (const [j, name] of (user.tools ?? []).entries()) scope.checkTool(report, [...at, "user", "tools", j], name);
    if (c.prompt === undefined && user.model === undefined && c.turns?.[0]?.user === undefined)
      report.error("E_CASE", [...at, "user"], "the conversation has no first message: the case has no prompt, no user.model to open it, and no turns[0].user", {
        hint: "Give the case a `prompt`, or the user a `model`, or the first turn a `user` message.",
      });
  }
  if (c.turns && c.script)
    report.error("E_CASE", [...at, "script"], "the case has both script and turns: a conversation scripts its agent turn by turn", {
      hint: "Move the script's calls and answer into `turns`.",
      key: true,
    });
  for (const [i, turn] of (c.turns ?? []).entries()) {
    for (const kind of ["calls", "userCalls"] as const)
      for (const [j, call] of (turn?.[kind] ?? []).entries()) scope.checkTool(report, [...at, "turns", i, kind, j, "tool"], call?.tool);
    if (i > 0 && turn?.user === undefined)
      report.error("E_CASE", [...at, "turns", i], `turn ${i + 1} has no user message: only the first turn's may come from the case's prompt`, {
        hint: 'Add `user: "..."` to the turn.',
      });
  }
  for (const [j, a] of (c.expect?.transcript ?? []).entries()) scope.checkExpression(report, [...at, "expect", "transcript", j, "jsonata"], a?.jsonata);
}
