/**
 * The record lines of each session, kept in memory as the host makes them (`onRecord`), so a
 * trial's judge reads exactly the lines its session's calls produced without reading a shared
 * record file back.
 */
import type { RecordedCall } from "../verify/types.js";

/** Collects record lines by session; a trial takes its session's lines once it has ended. */
export class RecordCollector {
  private readonly lines = new Map<string, RecordedCall[]>();

  /** The listener to give `startServices` as `onRecord`. */
  readonly listener = (line: Record<string, unknown>): void => {
    const session = line.session;
    if (typeof session !== "string") return;
    let kept = this.lines.get(session);
    if (!kept) this.lines.set(session, (kept = []));
    kept.push(line as unknown as RecordedCall);
  };

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
