import type { EvalCase } from "../../../schema/evals/evals.js";
import type { FakeMaps, JudgedCall } from "./fake-maps.js";
import { type Mismatch, mismatches, showExpected, showSeen } from "./match-value.js";
import { type AssertionResult, failed, notEvaluated, passed } from "./types.js";

type Expect = EvalCase["expect"];
type Matcher = NonNullable<Expect["calls"]>[number];
type Count = { min?: number; max?: number; exact?: number };

/** A matcher with the tool its name resolved to. */
interface Resolved {
  index: number;
  matcher: Matcher;
  label: string;
  target?: { server: string; tool: string };
  problem?: string;
}

const key = (pair: { server: string; tool: string }) => `${pair.server}/${pair.tool}`;

function resolveMatcher(matcher: Matcher, index: number, maps: FakeMaps): Resolved {
  const found = maps.resolve(matcher.tool);
  const label = `calls[${index}] ${matcher.tool}`;
  if (found.length === 1) return { index, matcher, label: `calls[${index}] ${key(found[0])}`, target: found[0] };
  if (found.length === 0) return { index, matcher, label, problem: `no fake serves a tool named "${matcher.tool}"` };
  return { index, matcher, label, problem: `"${matcher.tool}" may mean any of ${found.map(key).join(", ")}: name it as <server>/<tool>` };
}

const isCallTo = (call: JudgedCall, target: { server: string; tool: string }) => call.server === target.server && call.tool === target.tool;

/** Who made a call: a record line's `by` (a conversation's user under dual control), else the agent. */
const byOf = (call: JudgedCall): "agent" | "user" => ((call.line as { by?: unknown }).by === "user" ? "user" : "agent");
/** Whether a matcher counts the call's side: the agent's calls unless it says `by: user` or `any`. */
const counts = (call: JudgedCall, matcher: Matcher) => (matcher.by ?? "agent") === "any" || (matcher.by ?? "agent") === byOf(call);

const matches = (call: JudgedCall, r: Resolved) =>
  r.target !== undefined && counts(call, r.matcher) && isCallTo(call, r.target) && mismatches(r.matcher.arguments ?? {}, call.args).length === 0;

/** `min 1, max 3` / `exactly 2`. */
function showCount(count: Count): string {
  if (count.exact !== undefined) return `exactly ${count.exact}`;
  return [count.min !== undefined ? `at least ${count.min}` : "", count.max !== undefined ? `at most ${count.max}` : ""].filter(Boolean).join(" and ");
}

function countHolds(n: number, count: Count): boolean {
  if (count.exact !== undefined) return n === count.exact;
  return (count.min === undefined || n >= count.min) && (count.max === undefined || n <= count.max);
}

const list = (calls: readonly JudgedCall[]) => {
  const shown = calls
    .slice(0, 10)
    .map((c) => `#${c.number} ${c.server}/${c.tool}`)
    .join(", ");
  return calls.length > 10 ? `${shown}, … (${calls.length} in all)` : shown || "none";
};

/** The call to the same tool whose arguments differ least from the matcher's. */
function nearest(calls: readonly JudgedCall[], r: Resolved): { call: JudgedCall; found: Mismatch[] } | undefined {
  let best: { call: JudgedCall; found: Mismatch[] } | undefined;
  for (const call of calls) {
    if (!r.target || !isCallTo(call, r.target)) continue;
    const found = mismatches(r.matcher.arguments ?? {}, call.args);
    if (!best || found.length < best.found.length) best = { call, found };
  }
  return best;
}

/** Why no call matched: the nearest call's differing arguments, or the calls made instead. */
function unmatched(calls: readonly JudgedCall[], r: Resolved): { message: string; evidence: unknown } {
  const want = r.matcher.arguments ? ` with ${showExpected(r.matcher.arguments)}` : "";
  const near = nearest(calls, r);
  if (near) {
    return {
      message: `expected ${key(r.target!)}${want}; saw ${showSeen(near.found)} at call #${near.call.number}`,
      evidence: { nearest: { call: near.call.number, tool: key(r.target!), args: near.call.args }, differences: near.found },
    };
  }
  return {
    message: `expected a call to ${key(r.target!)}${want}; none was made (calls: ${list(calls)})`,
    evidence: { calls: calls.map((c) => `${c.server}/${c.tool}`) },
  };
}

/**
 * The call expectations of seed 002's tool-call assertions: each `calls` entry (required by
 * default, partial `arguments` with `$pattern`, `count`), `order: strict` (the required entries
 * happen in the listed order), `exclusive` (no other tool), `forbidden` (none of these tools) and
 * `callCount` (every call, refused ones included). In a conversation with dual control only the
 * agent's calls count, unless a matcher says `by: user` (or `any`).
 *
 * @example await judgeCalls(expect, judgedCalls(run.calls, maps.maps), maps)
 */
export function judgeCalls(expect: Expect, all: readonly JudgedCall[], maps: FakeMaps): AssertionResult[] {
  const results: AssertionResult[] = [];
  // `exclusive`, `callCount` and the messages count the agent's calls; a matcher may ask for the user's.
  const calls = all.filter((call) => byOf(call) === "agent");
  const resolved = (expect.calls ?? []).map((m, i) => resolveMatcher(m, i, maps));
  for (const r of resolved) {
    if (r.problem) {
      results.push(notEvaluated("calls", r.label, r.problem));
      continue;
    }
    const matching = all.filter((call) => matches(call, r));
    const count = r.matcher.count ?? (r.matcher.required === false ? undefined : { min: 1 });
    if (!count) {
      results.push(
        passed("calls", r.label, `optional: ${matching.length} matching call${matching.length === 1 ? "" : "s"}`, { calls: matching.map((c) => c.number) }),
      );
      continue;
    }
    if (countHolds(matching.length, count)) {
      results.push(
        passed(
          "calls",
          r.label,
          `${matching.length} matching call${matching.length === 1 ? "" : "s"} (${matching.map((c) => `#${c.number}`).join(", ") || "none"})`,
          { calls: matching.map((c) => c.number) },
        ),
      );
    } else if (matching.length === 0) {
      const why = unmatched(
        all.filter((call) => counts(call, r.matcher)),
        r,
      );
      results.push(failed("calls", r.label, why.message, why.evidence));
    } else {
      results.push(
        failed(
          "calls",
          r.label,
          `expected ${showCount(count)} matching call${count.exact === 1 ? "" : "s"} to ${key(r.target!)}; saw ${matching.length} (${matching.map((c) => `#${c.number}`).join(", ")})`,
          { calls: matching.map((c) => c.number) },
        ),
      );
    }
  }
  if (expect.order === "strict" && resolved.length > 0) results.push(strictOrder(resolved, all));
  if (expect.exclusive) {
    const allowed = new Set(resolved.filter((r) => r.target).map((r) => key(r.target!)));
    const others = calls.filter((call) => !allowed.has(key(call)));
    results.push(
      others.length === 0
        ? passed("exclusive", "exclusive", `every call was to ${[...allowed].join(", ") || "(no tool)"}`)
        : failed("exclusive", "exclusive", `only ${[...allowed].join(", ")} may be called; saw ${list(others)}`, {
            calls: others.map((c) => ({ call: c.number, tool: key(c) })),
          }),
    );
  }
  for (const [i, name] of (expect.forbidden ?? []).entries()) results.push(judgeForbidden(i, name, calls, maps));
  if (expect.callCount) {
    const ok = countHolds(calls.length, expect.callCount);
    const message = `expected ${showCount(expect.callCount)} calls; saw ${calls.length}`;
    results.push(ok ? passed("callCount", "callCount", message) : failed("callCount", "callCount", `${message} (${list(calls)})`, { calls: calls.length }));
  }
  return results;
}

/** `forbidden[i]`: no call to the tool, refused calls included. */
function judgeForbidden(index: number, name: string, calls: readonly JudgedCall[], maps: FakeMaps): AssertionResult {
  const found = maps.resolve(name);
  if (found.length !== 1) {
    const why =
      found.length === 0 ? `no fake serves a tool named "${name}"` : `"${name}" may mean any of ${found.map(key).join(", ")}: name it as <server>/<tool>`;
    return notEvaluated("forbidden", `forbidden[${index}] ${name}`, why);
  }
  const label = `forbidden[${index}] ${key(found[0])}`;
  const made = calls.filter((call) => isCallTo(call, found[0]));
  return made.length === 0
    ? passed("forbidden", label, `no call to ${key(found[0])}`)
    : failed(
        "forbidden",
        label,
        `${key(found[0])} must not be called; it was called ${made.length === 1 ? "once" : `${made.length} times`} (${made
          .slice(0, 10)
          .map((c) => `#${c.number}`)
          .join(", ")}${made.length > 10 ? ", …" : ""})`,
        { calls: made.map((c) => c.number) },
      );
}

/** The entries in listed order: each found after the one before (optional entries only when present). */
function strictOrder(resolved: Resolved[], calls: readonly JudgedCall[]): AssertionResult {
  let after = 0;
  const placed: Array<{ entry: string; call: number }> = [];
  for (const r of resolved) {
    if (!r.target) continue;
    const next = calls.find((call) => call.number > after && matches(call, r));
    if (next) {
      after = next.number;
      placed.push({ entry: r.label, call: next.number });
      continue;
    }
    if (r.matcher.required === false) continue;
    const earlier = calls.find((call) => matches(call, r));
    const previous = placed[placed.length - 1];
    const message = earlier
      ? `${key(r.target)} must come after ${previous ? `${previous.entry.replace(/^calls\[\d+\] /, "")} (call #${previous.call})` : "the calls listed before it"}; it happened at call #${earlier.number}`
      : `no call matches ${r.label}, so the order cannot hold`;
    return failed("order", "order: strict", message, { placed, calls: calls.map((c) => `#${c.number} ${key(c)}`) });
  }
  return passed("order", "order: strict", `in order: ${placed.map((p) => `#${p.call}`).join(" < ")}`, { placed });
}
