import type { Snapshot } from "./snapshot.js";

/** One call's evidence (SPEC §7). */
export interface JournalEntry {
  /** Increasing per host, from 1: `?since=<seq>` reads what came after. */
  seq: number;
  fake: string;
  kind: "mcp" | "api";
  /** The tool (MCP) or the operation (`METHOD /template`, API). */
  name: string;
  method: string;
  path: string;
  /** MCP: "ok", "tool_error" or "rpc_error"; API: the HTTP status. */
  status: string | number;
  startedAt: string;
  durationMs: number;
  /** False for a tool the fake does not serve or a route that matched no operation. */
  matched: boolean;
  input: Snapshot;
  output: Snapshot;
  logs: Snapshot[];
  /** MCP: what the handler sent the client and asked it while the call ran (log, progress, elicitation, sampling), in order. */
  exchanges?: Snapshot[];
  error?: string;
  /** The stub that answered, when one did. */
  stub?: string;
  /** Whether the call's state change was committed. */
  committed: boolean;
}

export interface JournalFilter {
  fake?: string;
  name?: string;
  status?: string;
  /** A sequence number (entries after it) or an ISO time (entries started at or after it). */
  since?: string;
}

/**
 * The last N calls across every fake, oldest first. Bounded so a long run cannot exhaust memory;
 * `dropped` counts what fell off the front.
 *
 * @example const journal = new Journal(1000); journal.add({...}); journal.list({ fake: "notes" });
 */
export class Journal {
  /** A ring: once full, each new entry takes the oldest one's slot. */
  private readonly ring: JournalEntry[] = [];
  private oldest = 0;
  private next = 1;
  dropped = 0;

  constructor(readonly limit = 1000) {}

  add(entry: Omit<JournalEntry, "seq">): JournalEntry {
    const full = entry as JournalEntry;
    // Set on the entry itself, so its lazy snapshots stay lazy.
    full.seq = this.next++;
    if (this.ring.length < this.limit) this.ring.push(full);
    else {
      this.ring[this.oldest] = full;
      this.oldest = (this.oldest + 1) % this.limit;
      this.dropped++;
    }
    return full;
  }

  /** How many entries were ever added, those dropped included. */
  get total(): number {
    return this.next - 1;
  }

  private get entries(): JournalEntry[] {
    return this.oldest === 0 ? this.ring : [...this.ring.slice(this.oldest), ...this.ring.slice(0, this.oldest)];
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const since = filter.since;
    const afterSeq = since !== undefined && /^\d+$/.test(since) ? Number(since) : undefined;
    const afterTime = since !== undefined && afterSeq === undefined ? Date.parse(since) : undefined;
    return this.entries.filter(
      (e) =>
        (filter.fake === undefined || e.fake === filter.fake) &&
        (filter.name === undefined || e.name === filter.name) &&
        (filter.status === undefined || String(e.status) === filter.status) &&
        (afterSeq === undefined || e.seq > afterSeq) &&
        (afterTime === undefined || Number.isNaN(afterTime) || Date.parse(e.startedAt) >= afterTime),
    );
  }
}
