/**
 * A state file kept durable without rewriting the world per commit: each commit appends one line
 * of its changes to `<file>.log` (one write call, before the call is answered, so a process
 * killed at any moment has handed every acknowledged commit to the OS), and the whole world is
 * written as the snapshot (`<file>`, the format it always had) only at the start, at close, and
 * in the background once the log has grown or a while has passed. The format and its replay are
 * `engine/core/record/state-log.ts`; readers apply the log with `withStateLog`.
 *
 * Every crash window reads back as the acknowledged world: a new snapshot is written to a
 * temporary file and fsynced, then marked in the log (`{"snapshot":hash,"seq":n}`), renamed over
 * the old one, and only then is the log replaced by one whose header names it, holding the
 * commits made while it was written. A reader finds the snapshot's hash in the header or a mark.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { type EntityPatches, snapshotHash, snapshotText, stateLogPath } from "../../core/record/index.js";
import type { States } from "../runtime/index.js";
import { lockStateFile, openForAppend, writeFileAtomicSync, writeWhole } from "./log-files.js";
import { writePrettyJsonInPieces } from "./pretty-json-chunks.js";

/** The points of writing a snapshot, in this order: where a test stops one, as a crash would. */
export type SnapshotStep = "written" | "marked" | "renamed" | "log-replaced";

/** When snapshots are written, and what a failed write is reported to. */
export interface DurableStateOptions {
  warn(message: string): void;
  /** A snapshot at most this long after the first commit it would hold (10 s). */
  snapshotMs?: number;
  /** A snapshot once the log holds this many bytes of commits, or the last snapshot's size when larger (1 MiB). */
  snapshotLogBytes?: number;
  /**
   * Keep the log open between commits (true). A host of many sessions closes each after its line,
   * so ten thousand sessions do not hold ten thousand files open.
   */
  keepOpen?: boolean;
  /** Called after each step of a snapshot; one that throws stops the writer there, as a crash would (tests). */
  onStep?(step: SnapshotStep): void;
}

const DEFAULT_SNAPSHOT_MS = 10_000;
const DEFAULT_SNAPSHOT_LOG_BYTES = 1024 * 1024;
/** How much of a snapshot is serialised between two turns of the event loop: about a millisecond's work. */
const PIECE_CHARS = 64 * 1024;

/**
 * One durable state file and its log. `start` writes the first snapshot; `append` each commit's
 * changes; `close` the last snapshot, removing the log.
 *
 * @example
 * const durable = new DurableStateFile("run/state.json", () => store.states, { warn });
 * durable.start();
 * store.onCommit((fake, commit) => durable.append(fake, commitPatches(commit)));
 */
export class DurableStateFile {
  readonly logFile: string;
  private fd: number | undefined;
  /** Commits appended in this process; a log's commits are numbered by it. */
  private seq = 0;
  /** The commits the newest snapshot holds. */
  private snapshotSeq = 0;
  private logBytes = 0;
  private snapshotBytes = 0;
  /** Bumped by every synchronous snapshot and by close: a background snapshot begun before one is dropped. */
  private generation = 0;
  private writing: Promise<void> | undefined;
  /** Background snapshots queued or being written, one after another: commits meanwhile wait for the next. */
  private pending = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private temporaries = 0;
  /** The background snapshot's temporary file while it is written: close removes it, so a process ended right after leaves none. */
  private backgroundTemporary: string | undefined;
  /** Releases `<file>.lock`, taken at start. */
  private unlock: (() => void) | undefined;
  /** The log has no torn last line: it was written whole by this writer, or cut when first opened. */
  private repaired = false;
  /** A commit's line was lost and the rewrite after it failed: the log misses a commit, so the next commit rewrites the world instead of appending after the gap. */
  private stale = false;
  /** How long a snapshot waits after the first commit it would hold: longer for a world that takes long to serialise. */
  private pauseMs: number;

  constructor(
    readonly file: string,
    private readonly states: () => States,
    private readonly options: DurableStateOptions,
  ) {
    this.logFile = stateLogPath(file);
    this.pauseMs = options.snapshotMs ?? DEFAULT_SNAPSHOT_MS;
  }

  /** Writes the snapshot and a fresh log (throws when it cannot: the run has no state file to keep). */
  start(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    try {
      this.unlock = lockStateFile(this.file);
    } catch (error) {
      // Another process's file: this writer writes nothing to it, ever (a session host warns and goes on).
      this.closed = true;
      throw error;
    }
    try {
      this.snapshotNow(false);
    } catch (error) {
      this.unlock();
      throw error;
    }
  }

  /** Appends one commit's changes as one line. A failed write is reported, and the whole world written instead. */
  append(fake: string, changes: EntityPatches): void {
    if (this.closed || Object.keys(changes).length === 0) return;
    const line = Buffer.from(`${JSON.stringify({ seq: ++this.seq, fake, changes })}\n`);
    if (this.stale) {
      this.rewrite();
      return;
    }
    try {
      this.fd ??= this.openLog();
      writeWhole(this.fd, line);
      if (this.options.keepOpen === false) this.closeLog();
    } catch (error) {
      this.warnOf(error);
      this.repaired = false;
      // Reopened (its torn tail cut) by the rewrite's mark: a short write leaves no half line before it.
      this.closeLog();
      this.rewrite();
      return;
    }
    this.logBytes += line.length;
    if (this.logBytes >= Math.max(this.options.snapshotLogBytes ?? DEFAULT_SNAPSHOT_LOG_BYTES, this.snapshotBytes)) this.snapshotSoon(0);
    else this.snapshotSoon(this.pauseMs);
  }

  /** Writes a snapshot in the background now (after the one being written, if any); resolves when it is down. */
  snapshot(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // With none being written, the world is serialised now, before anything else can commit.
    const next = this.pending > 0 && this.writing ? this.writing.then(() => this.writeInBackground()) : this.writeInBackground();
    this.pending++;
    const settled = next
      .catch((error) => this.warnOf(error))
      .finally(() => {
        this.pending--;
        // Commits made while it was written are in the log; the next snapshot takes them in due course.
        if (this.pending === 0 && !this.closed && this.seq !== this.snapshotSeq) this.snapshotSoon(this.pauseMs);
      });
    this.writing = settled;
    return settled;
  }

  /** The last snapshot, written now; the log removed. Nothing is written after it. */
  close(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      if (this.seq !== this.snapshotSeq || existsSync(this.logFile)) this.snapshotNow(true);
    } catch (error) {
      this.warnOf(error);
    }
    this.closed = true;
    this.closeLog();
    this.dropBackgroundTemporary();
    this.unlock?.();
  }

  /** Stops writing, leaving the files as they are (a world replaced by a new one on the same file). */
  abandon(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.closed = true;
    this.generation++;
    this.closeLog();
    this.dropBackgroundTemporary();
    this.unlock?.();
  }

  private dropBackgroundTemporary(): void {
    if (this.backgroundTemporary === undefined) return;
    try {
      rmSync(this.backgroundTemporary, { force: true });
    } catch {
      // Not there to remove: the snapshot's own cleanup reports nothing either.
    }
    this.backgroundTemporary = undefined;
  }

  private snapshotSoon(ms: number): void {
    if (this.pending > 0 || (this.timer !== undefined && ms > 0)) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.snapshot(), ms);
    this.timer.unref();
  }

  /** The whole world as a snapshot and a fresh log, or reported when even that fails. */
  private rewrite(): void {
    try {
      this.snapshotNow(false);
      this.stale = false;
    } catch (error) {
      this.stale = true;
      this.closeLog();
      this.warnOf(error);
    }
  }

  /** A snapshot written synchronously: at the start, at close (`last`: the log is removed), after a failed append. */
  private snapshotNow(last: boolean): void {
    this.generation++;
    const seq = this.seq;
    const text = snapshotText(this.states());
    const hash = snapshotHash(text);
    const temporary = this.temporary();
    try {
      writeFileSync(temporary, text, { flush: true });
      this.step("written");
      // An older log (this process's, or one a killed run left) is marked before the rename: a crash
      // before the log below replaces it still reads this snapshot, never that log applied to it.
      if (this.fd !== undefined || existsSync(this.logFile)) this.appendMark(hash, seq);
      this.step("marked");
      renameSync(temporary, this.file);
    } catch (error) {
      // A snapshot that could not be put in place leaves nothing behind (a test's stop at a step included).
      try {
        rmSync(temporary, { force: true });
      } catch {
        // Not a file this writer made (a folder in its way): the error below says why it failed.
      }
      throw error;
    }
    this.step("renamed");
    this.snapshotSeq = seq;
    this.snapshotBytes = text.length;
    if (last) {
      this.closeLog();
      rmSync(this.logFile, { force: true });
    } else this.replaceLog(hash, Buffer.alloc(0));
    this.logBytes = 0;
    this.step("log-replaced");
  }

  /**
   * A snapshot serialised a piece at a time, its bytes written off the event loop, so calls are
   * answered meanwhile; then marked in the log, renamed over the old one and the log replaced,
   * synchronously. The world is the one of `seq` commits: its fakes' entity maps are copied when
   * it begins, and the values in them are frozen.
   */
  private async writeInBackground(): Promise<void> {
    if (this.closed || this.seq === this.snapshotSeq) return;
    const generation = ++this.generation;
    const seq = this.seq;
    const world: States = {};
    for (const [id, entities] of Object.entries(this.states())) world[id] = { ...entities };
    // Every commit after this point is numbered past `seq` and lands in the log after this offset.
    const from = this.logSize();
    const temporary = this.temporary();
    this.backgroundTemporary = temporary;
    let written: Awaited<ReturnType<typeof writePrettyJsonInPieces>>;
    try {
      written = await writePrettyJsonInPieces(temporary, world, PIECE_CHARS);
    } finally {
      if (this.backgroundTemporary === temporary) this.backgroundTemporary = undefined;
    }
    const { digest, bytes, busyMs } = written;
    let markAt: number;
    let markEnd: number;
    try {
      this.step("written");
      // A synchronous snapshot or close came in between: it is newer than this one.
      if (generation !== this.generation || this.closed) {
        rmSync(temporary, { force: true });
        return;
      }
      markAt = this.logSize();
      markEnd = this.appendMark(digest, seq);
      this.step("marked");
      renameSync(temporary, this.file);
    } catch (error) {
      // A mark that cannot be written (a full disk) leaves no whole world behind, once a try.
      rmSync(temporary, { force: true });
      throw error;
    }
    this.step("renamed");
    this.snapshotSeq = seq;
    this.snapshotBytes = bytes;
    // A large world is snapshotted less often: serialising it takes at most about 2% of the time.
    this.pauseMs = Math.max(this.options.snapshotMs ?? DEFAULT_SNAPSHOT_MS, busyMs * 50);
    // The commits appended since the snapshot began go on, in a log that follows it (the mark left out).
    const fd = openSync(this.logFile, "r");
    let rest: Buffer;
    try {
      const end = fstatSync(fd).size;
      const before = Buffer.alloc(markAt - from);
      const after = Buffer.alloc(end - markEnd);
      readSync(fd, before, 0, before.length, from);
      readSync(fd, after, 0, after.length, markEnd);
      rest = Buffer.concat([before, after]);
    } finally {
      closeSync(fd);
    }
    this.replaceLog(digest, rest);
    this.logBytes = rest.length;
    this.step("log-replaced");
  }

  /** The log's size now (0 when there is none yet). */
  private logSize(): number {
    this.fd ??= this.openLog();
    return fstatSync(this.fd).size;
  }

  /** Appends a snapshot's mark; returns the log's size after it. */
  private appendMark(hash: string, seq: number): number {
    this.fd ??= this.openLog();
    // Without `seq` (a log this process did not write): the snapshot holds every commit in it.
    const mark = this.seq === 0 && seq === 0 ? { snapshot: hash } : { snapshot: hash, seq };
    writeWhole(this.fd, Buffer.from(`${JSON.stringify(mark)}\n`));
    return fstatSync(this.fd).size;
  }

  /** Replaces the log by one that follows the snapshot `hash`, holding `rest` (commits after it). */
  private replaceLog(hash: string, rest: Buffer): void {
    const temporary = this.temporary();
    writeFileAtomicSync(this.logFile, `${JSON.stringify({ stateLog: 1, snapshot: hash })}\n${rest.toString("utf8")}`, temporary);
    this.closeLog();
    // Written whole just now: nothing torn to cut when it is opened again.
    this.repaired = true;
    if (this.options.keepOpen !== false) this.fd = openSync(this.logFile, "a");
  }

  /** The log opened to append to; the first time (or after a failed write) its torn last line cut off. */
  private openLog(): number {
    const fd = this.repaired ? openSync(this.logFile, "a") : openForAppend(this.logFile);
    this.repaired = true;
    return fd;
  }

  private closeLog(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Already closed with its file: nothing is lost, every line was written.
    }
    this.fd = undefined;
  }

  private temporary(): string {
    return `${this.file}.${process.pid}.${++this.temporaries}.tmp`;
  }

  private step(step: SnapshotStep): void {
    this.options.onStep?.(step);
  }

  private warnOf(error: unknown): void {
    this.options.warn(`[eval-simulate] warning: could not write the state file ${this.file}: ${(error as Error).message}`);
  }
}
