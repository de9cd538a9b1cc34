/**
 * The record lines of each session, kept in memory as the host makes them (`onRecord`), so a
 * trial's judge reads exactly the lines its session's calls produced without reading a shared
 * record file back.
 */
import type { OutsideAttempt } from "../../serve/host/index.js";
import type { OutsideRequest, OutsideRequests } from "../../judge/selection/index.js";
import type { RecordedCall } from "../../core/record/index.js";

/** Requests outside a session kept by path, beyond which they are only counted. */
const OUTSIDE_KEPT = 100;

/** Collects record lines by session; a trial takes its session's lines once it has ended. */
export class RecordCollector {
  private readonly lines = new Map<string, RecordedCall[]>();
  private readonly outsides = new Map<string, { count: number; first: OutsideRequest[] }>();

  /** The listener to give `startServices` as `onRecord`. */
  readonly listener = (line: Record<string, unknown>): void => {
    const session = line.session;
    if (typeof session !== "string") return;
    let kept = this.lines.get(session);
    if (!kept) this.lines.set(session, (kept = []));
    kept.push(line as unknown as RecordedCall);
  };

  /** The listener to give `startServices` as `onOutside`: each is counted, the first 100 kept, so no agent can fill the memory. */
  readonly outside = (attempt: OutsideAttempt): void => {
    let kept = this.outsides.get(attempt.session);
    if (!kept) this.outsides.set(attempt.session, (kept = { count: 0, first: [] }));
    kept.count++;
    if (kept.first.length < OUTSIDE_KEPT) kept.first.push({ kind: attempt.kind, method: attempt.method, path: attempt.path.slice(0, 500) });
  };

  /**
   * A session's requests outside it (how many, the first ones in the order they came), forgotten here.
   *
   * @example const { count } = collector.takeOutside(session.id);
   */
  takeOutside(session: string): OutsideRequests {
    const kept = this.outsides.get(session) ?? { count: 0, first: [] };
    this.outsides.delete(session);
    return kept;
  }

  /**
   * A session's lines so far, live and kept here (a conversation marks each turn's as it goes).
   *
   * @example const before = collector.peek(session.id).length;
   */
  peek(session: string): Record<string, unknown>[] {
    let kept = this.lines.get(session);
    if (!kept) this.lines.set(session, (kept = []));
    return kept as unknown as Record<string, unknown>[];
  }

  /**
   * A session's lines, in the order its calls were recorded, forgotten here.
   *
   * @example const calls = collector.take(session.id);
   */
  take(session: string): RecordedCall[] {
    const kept = this.lines.get(session) ?? [];
    this.lines.delete(session);
    return kept;
  }
}
