import { Journal, type JournalEntry, type JournalFilter } from "../journal/journal.js";
import { redact, redactResult, secretNames } from "../journal/redact.js";
import { snapshot } from "../journal/snapshot.js";
import type { ApiCallOutcome } from "../api/index.js";
import type { CallOutcome } from "../runtime/call-tool.js";
import { appendJsonLine, prepareRecordFile } from "./state-files.js";

/** A call to a tool the fake does not serve: it reaches the journal and the record as an error. */
export interface RefusedCall {
  server: string;
  tool: string;
  args: Record<string, unknown> | undefined;
  error: { code: number; message: string };
  startedAt: string;
  durationMs: number;
}

type Snapshots = Pick<JournalEntry, "input" | "output" | "logs">;

/** An entry whose snapshots are made the first time they are read, then kept. */
function lazySnapshots(entry: Omit<JournalEntry, "seq" | keyof Snapshots>, make: () => Snapshots): Omit<JournalEntry, "seq"> {
  let made: Snapshots | undefined;
  for (const key of ["input", "output", "logs"] as const) {
    Object.defineProperty(entry, key, { enumerable: true, get: () => (made ??= make())[key] });
  }
  return entry as Omit<JournalEntry, "seq">;
}

/**
 * Every call's evidence: the journal (bounded, redacted snapshots) and, when asked for, the
 * record file (one redacted JSON line per call). Both redact the same names.
 */
export class Evidence {
  readonly journal: Journal;
  private readonly isSecret: (name: string) => boolean;

  constructor(options: { redact?: readonly string[]; journalLimit?: number; record?: string }) {
    this.journal = new Journal(options.journalLimit ?? 1000);
    this.isSecret = secretNames(options.redact ?? []);
    this.record = options.record;
    if (this.record) prepareRecordFile(this.record);
  }

  private readonly record: string | undefined;

  /** A tools/call that reached the fake's pipeline. */
  mcpCall(outcome: CallOutcome): void {
    if (this.record) {
      const args = redact(outcome.args, this.isSecret);
      appendJsonLine(this.record, { server: outcome.server, tool: outcome.tool, args, result: redactResult(outcome.result, this.isSecret) });
    }
    const error = outcome.result.isError ? (outcome.result.content[0] as { text?: string } | undefined)?.text : undefined;
    // The snapshots are taken when the journal is read, not on every call: most calls are never
    // read, and redacting and serialising them cost a tenth of a call. The values are not changed
    // after the call (committed state is frozen; arguments and results are the call's own).
    this.journal.add(lazySnapshots({
      fake: outcome.server,
      kind: "mcp",
      name: outcome.tool,
      method: "tools/call",
      path: `/${outcome.server}/mcp`,
      status: outcome.result.isError ? "tool_error" : "ok",
      startedAt: outcome.startedAt,
      durationMs: outcome.durationMs,
      matched: true,
      committed: outcome.committed,
      ...(error === undefined ? {} : { error }),
      ...(outcome.stub === undefined ? {} : { stub: outcome.stub }),
    }, () => ({
      input: snapshot(redact(outcome.args ?? {}, this.isSecret)),
      output: snapshot(redactResult(outcome.result, this.isSecret)),
      logs: outcome.logs.map((log) => snapshot(redact(log, this.isSecret))),
    })));
  }

  /** A tools/call the fake refused with a JSON-RPC error (a tool it does not serve). */
  mcpRefused(call: RefusedCall): void {
    const args = redact(call.args, this.isSecret) as Record<string, unknown> | undefined;
    if (this.record) appendJsonLine(this.record, { server: call.server, tool: call.tool, args, result: { error: call.error } });
    this.journal.add({
      fake: call.server,
      kind: "mcp",
      name: call.tool,
      method: "tools/call",
      path: `/${call.server}/mcp`,
      status: "rpc_error",
      startedAt: call.startedAt,
      durationMs: call.durationMs,
      matched: false,
      input: snapshot(args ?? {}),
      output: snapshot({ error: call.error }),
      logs: [],
      error: call.error.message,
      committed: false,
    });
  }

  /** A request to an API fake, matched or not. */
  apiCall(outcome: ApiCallOutcome, request: Request): void {
    const sent = redact(outcome.request, this.isSecret) as ApiCallOutcome["request"];
    const answered = redact(outcome.response, this.isSecret);
    if (this.record) appendJsonLine(this.record, { api: outcome.api, operation: outcome.operation, request: sent, response: answered });
    this.journal.add({
      fake: outcome.api,
      kind: "api",
      name: outcome.operation,
      method: outcome.request.method,
      path: new URL(request.url).pathname,
      status: outcome.response.status,
      startedAt: outcome.startedAt,
      durationMs: outcome.durationMs,
      matched: outcome.matched,
      input: snapshot(sent),
      output: snapshot(answered),
      logs: outcome.logs.map((log) => snapshot(redact(log, this.isSecret))),
      committed: outcome.committed,
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
      ...(outcome.stub === undefined ? {} : { stub: outcome.stub }),
    });
  }

  /** A request proxied to one of emulate's built-ins: its method, path and status. */
  proxiedCall(fake: string, request: Request, status: number, started: number): void {
    const url = new URL(request.url);
    const headers = redact(Object.fromEntries(request.headers), this.isSecret);
    if (this.record) appendJsonLine(this.record, { api: fake, operation: `${request.method} ${url.pathname}`, request: { headers }, response: { status } });
    this.journal.add({
      fake,
      kind: "api",
      name: `${request.method} ${url.pathname}`,
      method: request.method,
      path: url.pathname,
      status,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      matched: status !== 404,
      input: snapshot({ query: url.search, headers }),
      output: snapshot("(an emulate built-in: its body is not journaled)"),
      logs: [],
      committed: false,
    });
  }

  calls(filter: JournalFilter = {}): JournalEntry[] {
    return this.journal.list(filter);
  }
}
