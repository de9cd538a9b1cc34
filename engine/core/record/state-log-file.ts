/**
 * Reading a state file's log from disk (`state.json.log`, see `state-log.ts`) and applying it to
 * the snapshot a reader has already read: what the judge's run reader, serve's resume and
 * `eval-simulate/verify` use, so each gets the world of every acknowledged commit. Bounded as a
 * record is: a cap per line and in all, regular files only.
 */
import { existsSync } from "node:fs";
import { readRegularFile, readRegularLines } from "../files/index.js";
import {
  commitsForSnapshot,
  parseStateLogLine,
  replayStateLog,
  snapshotHash,
  stateLogPath,
  type StateLogCommit,
  type StateLogHeader,
  type StateLogMark,
} from "./state-log.js";
import type { StatesByFake } from "./types.js";

/** A log's caps: a line holds one commit's patches, the log about twice a world before it is compacted. */
export const STATE_LOG_LIMITS = { maxLineBytes: 64 * 1024 * 1024, maxBytes: 512 * 1024 * 1024 };

/**
 * The lines of a log file, or `undefined` when there is none. A last line its newline never
 * followed (a write cut short, never acknowledged) is left out; any other bad line is an error
 * naming the file and line.
 *
 * @example const lines = readStateLogLines("run/state.json.log");
 */
export function readStateLogLines(file: string, limits = STATE_LOG_LIMITS): Array<StateLogHeader | StateLogCommit | StateLogMark> | undefined {
  if (!existsSync(file)) return undefined;
  const lines: Array<StateLogHeader | StateLogCommit | StateLogMark> = [];
  const read = readRegularLines(file, limits, (text, number, unterminated) => {
    if (unterminated) return;
    try {
      lines.push(parseStateLogLine(text));
    } catch (error) {
      throw new Error(`[eval-simulate] ${file}:${number}: the state log's line is ${(error as Error).message}`);
    }
  });
  if (!read.ok) {
    if (read.code === "ENOENT") return undefined;
    throw new Error(`[eval-simulate] ${file}${read.line ? `:${read.line}` : ""} ${read.reason}`);
  }
  return lines;
}

/**
 * A state file's world with its log applied: `snapshot` is the file's parsed text (`text`),
 * returned as it is when no log beside it follows it. Throws naming the log when it is broken
 * or does not fit the snapshot.
 *
 * @example const states = withStateLog("run/state.json", text, JSON.parse(text));
 */
export function withStateLog(stateFile: string, text: string, snapshot: StatesByFake): StatesByFake {
  const logFile = stateLogPath(stateFile);
  // A snapshot can be replaced (and its log with it) between the caller's read and this one: a
  // log that follows another snapshot sends the reader back to the file, while it keeps changing.
  for (let attempt = 0; ; attempt++) {
    const lines = readStateLogLines(logFile);
    if (lines === undefined || lines.length === 0) return snapshot;
    let found: ReturnType<typeof commitsForSnapshot>;
    try {
      found = commitsForSnapshot(lines, snapshotHash(text));
      if (!("foreign" in found)) return replayStateLog(snapshot, snapshotHash(text), lines);
    } catch (error) {
      throw new Error(`[eval-simulate] ${logFile}: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`);
    }
    const again = attempt < MAX_REREADS ? readRegularFile(stateFile) : undefined;
    if (!again?.ok || again.text === text) return snapshot;
    let value: unknown;
    try {
      value = JSON.parse(again.text);
    } catch {
      return snapshot;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) return snapshot;
    text = again.text;
    snapshot = value as StatesByFake;
  }
}

/** How many times a reader goes back to a snapshot replaced under it: each replacement takes a background snapshot's time. */
const MAX_REREADS = 3;
