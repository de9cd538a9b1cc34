import type { ApiCallOutcome } from "../api/index.js";
import type { AnswerSpec } from "../../author/contract/index.js";
import { Journal, type JournalEntry, type JournalFilter } from "../journal/index.js";
import { largerThan, redact, redactParams, redactResult, redactText, type SecretNames, secretNames } from "../journal/index.js";
import { SNAPSHOT_LIMIT, snapshot } from "../journal/index.js";
import type { CallOutcome } from "../runtime/index.js";
import { recordedChanges } from "./record-changes.js";
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
type Entry = Omit<JournalEntry, "seq">;

/**
 * An entry whose snapshots are made the first time they are read, then kept: most calls are
 * never read, and redacting and serialising every one cost a tenth of a call. Values larger
 * than a snapshot are cut at once instead, so the journal never holds more than it shows.
 */
function withSnapshots(entry: Omit<Entry, keyof Snapshots>, raw: unknown[], make: () => Snapshots): Entry {
  if (raw.some((value) => largerThan(value, SNAPSHOT_LIMIT))) return { ...entry, ...make() };
  let made: Snapshots | undefined;
  for (const key of ["input", "output", "logs"] as const) {
    Object.defineProperty(entry, key, { enumerable: true, get: () => (made ??= make())[key] });
  }
  return entry as Entry;
}

/**
 * Every call's evidence: the journal (bounded, redacted snapshots) and, when asked for, the
 * record file (one redacted JSON line per call). Both redact the same names. The runtime hands
 * each outcome over before it commits (its `witness`), so the record never lacks a write the
 * state file holds. Evidence never changes a call's answer: a failure to keep it is a warning.
 */
export class Evidence {
  readonly journal: Journal;
  private readonly names: SecretNames;
  private readonly record: string | undefined;
  private readonly onRecord: ((line: Record<string, unknown>) => void) | undefined;
  private readonly warn: (message: string) => void;
  /** The session this evidence is of: its record lines name it. */
  private readonly session: string | undefined;

  constructor(options: {
    redact?: readonly string[];
    journalLimit?: number;
    record?: string;
    onRecord?: (line: Record<string, unknown>) => void;
    warn?: (message: string) => void;
  }) {
    this.journal = new Journal(options.journalLimit ?? 1000);
    this.names = secretNames(options.redact ?? []);
    this.record = options.record;
    this.onRecord = options.onRecord;
    this.warn = options.warn ?? console.warn;
    if (this.record) prepareRecordFile(this.record);
  }

  /**
   * The evidence of one session: a journal of its own, the same redaction and record file, its
   * record lines naming the session. Costs a journal, nothing compiled.
   */
  forSession(session: string): Evidence {
    const child = Object.create(Evidence.prototype) as Evidence;
    Object.assign(child, this, { journal: new Journal(this.journal.limit), session });
    return child;
  }

  /** A record line, naming its session when it has one. */
  private line(value: Record<string, unknown>): Record<string, unknown> {
    return this.session === undefined ? value : { session: this.session, ...value };
  }

  /** Whether record lines are wanted at all (a file, a listener, or both). */
  private get recording(): boolean {
    return this.record !== undefined || this.onRecord !== undefined;
  }

  /** Writes a record line to the file and hands it to the listener. */
  private keep(value: Record<string, unknown>): void {
    const line = this.line(value);
    if (this.record) appendJsonLine(this.record, line);
    this.onRecord?.(line);
  }

  private safely(what: string, keep: () => void): void {
    try {
      keep();
    } catch (error) {
      this.warn(`[eval-simulate] warning: could not keep the evidence of ${what}: ${(error as Error)?.message ?? error}`);
    }
  }

  private text = (value: string | undefined, answer?: AnswerSpec) => (value === undefined ? undefined : redactText(value, this.names, answer));

  /** A request as the fake saw it, redacted: headers as fields, query (and form) values as parameters, the path's URLs. */
  private request(request: ApiCallOutcome["request"]): ApiCallOutcome["request"] {
    const form = /^application\/x-www-form-urlencoded/i.test(request.headers["content-type"] ?? "");
    return {
      ...request,
      path: redactText(request.path, this.names),
      params: redact(request.params, this.names) as Record<string, unknown>,
      query: redactParams(request.query, this.names) as Record<string, unknown>,
      headers: redact(request.headers, this.names) as Record<string, string>,
      body: typeof request.body === "string" ? this.text(request.body) : form ? redactParams(request.body, this.names) : redact(request.body, this.names),
    };
  }

  /** A tools/call that reached the fake's pipeline; `answer` reads its text to redact it. */
  mcpCall(outcome: CallOutcome, answer?: AnswerSpec): void {
    const what = `${outcome.server}/${outcome.tool}`;
    const error = outcome.result.isError ? (outcome.result.content[0] as { text?: string } | undefined)?.text : undefined;
    const snapshots = () => ({
      input: snapshot(redact(outcome.args ?? {}, this.names)),
      output: snapshot(redactResult(outcome.result, this.names, answer)),
      logs: outcome.logs.map((log) => snapshot(redact(log, this.names))),
    });
    this.safely(what, () => {
      const entry = {
        fake: outcome.server,
        kind: "mcp" as const,
        name: outcome.tool,
        method: "tools/call",
        path: `/${outcome.server}/mcp`,
        status: outcome.result.isError ? "tool_error" : "ok",
        startedAt: outcome.startedAt,
        durationMs: outcome.durationMs,
        matched: true,
        committed: outcome.committed,
        ...(error === undefined ? {} : { error: this.text(error, answer) }),
        ...(outcome.stub === undefined ? {} : { stub: outcome.stub }),
        ...(outcome.exchanges && { exchanges: outcome.exchanges.map((exchange) => snapshot(redact(exchange, this.names))) }),
      };
      this.journal.add(withSnapshots(entry, [outcome.args, outcome.result, outcome.logs], snapshots));
    });
    if (this.recording) {
      this.safely(what, () =>
        this.keep({
          server: outcome.server,
          tool: outcome.tool,
          args: redact(outcome.args, this.names),
          result: redactResult(outcome.result, this.names, answer),
          ...recordedChanges(outcome.commit),
          ...(outcome.exchanges && { exchanges: outcome.exchanges.map((exchange) => redact(exchange, this.names)) }),
          ...(outcome.refused && { refused: "arguments" as const }),
        }),
      );
    }
  }

  /** A tools/call the fake refused with a JSON-RPC error (a tool it does not serve). */
  mcpRefused(call: RefusedCall): void {
    this.safely(`${call.server}/${call.tool}`, () => {
      const args = redact(call.args, this.names) as Record<string, unknown> | undefined;
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
      if (this.recording) this.keep({ server: call.server, tool: call.tool, args, result: { error: call.error } });
    });
  }

  /** A request to an API fake, matched or not. Bodies that are not JSON are redacted as forms. */
  apiCall(outcome: ApiCallOutcome, request: Request): void {
    this.safely(`${outcome.api} ${outcome.request.method} ${outcome.request.path}`, () => {
      const sent = this.request(outcome.request);
      const { response } = outcome;
      const answered = {
        ...response,
        headers: redact(response.headers, this.names) as Record<string, string>,
        body: typeof response.body === "string" ? this.text(response.body) : redact(response.body, this.names),
      };
      this.journal.add({
        fake: outcome.api,
        kind: "api",
        name: outcome.operation,
        method: outcome.request.method,
        path: redactText(new URL(request.url).pathname, this.names),
        status: outcome.response.status,
        startedAt: outcome.startedAt,
        durationMs: outcome.durationMs,
        matched: outcome.matched,
        input: snapshot(sent),
        output: snapshot(answered),
        logs: outcome.logs.map((log) => snapshot(redact(log, this.names))),
        committed: outcome.committed,
        ...(outcome.error === undefined ? {} : { error: this.text(outcome.error) }),
        ...(outcome.stub === undefined ? {} : { stub: outcome.stub }),
      });
      if (this.recording) this.keep({ api: outcome.api, operation: outcome.operation, request: sent, response: answered, ...recordedChanges(outcome.commit) });
    });
  }

  /** A request proxied to one of emulate's built-ins: its method, path, query and status. */
  proxiedCall(fake: string, request: Request, status: number, started: number): void {
    this.safely(`${fake} ${request.method}`, () => {
      const url = new URL(request.url);
      const headers = redact(Object.fromEntries(request.headers), this.names);
      const query = this.text(url.search.slice(1));
      const path = redactText(url.pathname, this.names);
      this.journal.add({
        fake,
        kind: "api",
        name: `${request.method} ${path}`,
        method: request.method,
        path,
        status,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        matched: status !== 404,
        input: snapshot({ query, headers }),
        output: snapshot("(an emulate built-in: its body is not journaled)"),
        logs: [],
        committed: false,
      });
      if (this.recording) this.keep({ api: fake, operation: `${request.method} ${path}`, request: { query, headers }, response: { status } });
    });
  }

  calls(filter: JournalFilter = {}): JournalEntry[] {
    return this.journal.list(filter);
  }
}
