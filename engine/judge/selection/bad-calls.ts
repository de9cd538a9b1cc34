/**
 * Bad calls in a trial's record: (a) the same call repeated after a definitive error (a tool
 * error, a JSON-RPC error, a 4xx other than 408/429: what repeating cannot fix), (b) calls the
 * input schema refused, (c) insistence: three or more calls on the same tool and key, all failing,
 * and (d) requests the trial's agent sent outside its session (the host tells them; they are not
 * in the record). Transient failures (5xx, 429, 408) are not definitive: retrying them is fair.
 */
import type { RecordedCall } from "../../core/record/index.js";

export interface BadCallCounts {
  /** Calls identical (tool and arguments) to an earlier call that failed definitively. */
  repeatedAfterError: number;
  /** Calls refused by the tool's input schema (or the operation's request validation). */
  schemaRefused: number;
  /** Tool-and-key groups of three or more calls, every one failing. */
  insistence: number;
  /** Requests outside the trial's session (set when there were any). */
  outsideSession?: number;
  total: number;
}

/** A request a trial's agent sent outside its session, as the host reported it. */
export interface OutsideRequest {
  /** `sessions`, `admin`, `other-session`, `unserved` or `traversal`. */
  kind: string;
  method: string;
  /** Its path, any session secret cut out. */
  path: string;
}

/** The requests a trial's agent sent outside its session: how many, and the first ones (a bounded list). */
export interface OutsideRequests {
  count: number;
  first: readonly OutsideRequest[];
}

export interface BadCallReport extends BadCallCounts {
  /** One line per bad call or insistence group, with the call numbers (#1 first). */
  details: string[];
}

interface Call {
  number: number;
  name: string;
  args: unknown;
  failed: boolean;
  definitive: boolean;
  refused: boolean;
  /** What insistence groups by (see callKey). */
  key: string;
}

/** JSON with keys sorted, so `{a,b}` and `{b,a}` are the same call. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

const IDENTIFIER = /(^|[_-])(id|ids|key|keys|name|names|path|paths|uri|url|slug|number|entityName|entityNames|source|destination)$/i;

/**
 * The key calls are grouped by for insistence: the identifier-like arguments (ids, keys, names,
 * paths, URLs), else every argument. An API call's key is its path parameters.
 *
 * @example callKey({ key: "T-9", note: "again" }) // '{"key":"T-9"}'
 */
export function callKey(args: unknown): string {
  if (!args || typeof args !== "object" || Array.isArray(args)) return canonical(args);
  const ids = Object.fromEntries(Object.entries(args).filter(([k]) => IDENTIFIER.test(k)));
  return canonical(Object.keys(ids).length > 0 ? ids : args);
}

function readCall(line: RecordedCall, number: number): Call {
  if ("server" in line) {
    const result = line.result as { isError?: boolean; error?: { code?: number; message?: string }; content?: Array<{ text?: string }> } | undefined;
    const text = (result?.content ?? []).map((c) => c.text ?? "").join("\n");
    const rpc = result?.error;
    const refused =
      line.refused === "arguments" ||
      (result?.isError === true && /^Input validation error/.test(text)) ||
      (rpc?.code === -32602 && /invalid/i.test(rpc.message ?? "") && !/not found/i.test(rpc.message ?? ""));
    const failed = result?.isError === true || rpc !== undefined;
    return { number, name: `${line.server}/${line.tool}`, args: line.args ?? {}, failed, definitive: failed, refused, key: callKey(line.args ?? {}) };
  }
  const response = line.response as { status?: number; body?: { error?: string } } | undefined;
  const status = response?.status ?? 0;
  const request = (line.request ?? {}) as { params?: unknown };
  return {
    number,
    name: `${line.api}/${line.operation}`,
    args: line.request ?? {},
    failed: status >= 400,
    definitive: status >= 400 && status < 500 && status !== 408 && status !== 429,
    refused: status === 400 && response?.body?.error === "bad_request",
    key: canonical(request.params ?? request),
  };
}

/**
 * Counts a trial's bad calls from its record lines (in order) and the requests its agent sent
 * outside its session.
 *
 * @example badCalls(trial.session.record).total
 */
export function badCalls(record: readonly RecordedCall[], outside: OutsideRequests = { count: 0, first: [] }): BadCallReport {
  const calls = record.map((line, i) => readCall(line, i + 1));
  const details: string[] = [];
  let repeatedAfterError = 0;
  const failedBefore = new Map<string, number>();
  for (const call of calls) {
    const same = `${call.name} ${canonical(call.args)}`;
    const earlier = failedBefore.get(same);
    if (earlier !== undefined) {
      repeatedAfterError++;
      details.push(`#${call.number} ${call.name} repeats #${earlier}, which failed definitively`);
    }
    if (call.definitive && !failedBefore.has(same)) failedBefore.set(same, call.number);
  }
  const refused = calls.filter((c) => c.refused);
  for (const c of refused) details.push(`#${c.number} ${c.name} was refused by its input schema`);
  const groups = new Map<string, Call[]>();
  for (const call of calls) {
    const key = `${call.name} ${call.key}`;
    groups.set(key, [...(groups.get(key) ?? []), call]);
  }
  let insistence = 0;
  for (const [key, group] of groups) {
    if (group.length < 3 || !group.every((c) => c.failed)) continue;
    insistence++;
    details.push(`${group.map((c) => `#${c.number}`).join(", ")}: ${group.length} failing calls of ${key}`);
  }
  for (const request of outside.first) details.push(`${request.method} ${request.path} reached outside the session (${request.kind})`);
  const total = repeatedAfterError + refused.length + insistence + outside.count;
  return { repeatedAfterError, schemaRefused: refused.length, insistence, ...(outside.count > 0 ? { outsideSession: outside.count } : {}), total, details };
}
