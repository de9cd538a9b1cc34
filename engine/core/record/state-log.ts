/**
 * A durable state file's log: the commits made since its snapshot (`state.json`), one JSON line
 * each, in `state.json.log` beside it. The snapshot is the state file as it always was (every
 * fake's state by id, pretty-printed); the log says which snapshot it follows by the sha256 of
 * the snapshot's bytes, so a reader never applies a log to a snapshot it was not written for.
 *
 * Lines, in order:
 * - a header, first: `{"stateLog":1,"snapshot":"<sha256 of the snapshot it follows>"}`;
 * - a commit: `{"seq":n,"fake":"<id>","changes":{<entity>: <patch>}}`, the patches of
 *   `entity-patch.ts` (the record line's `changes`), `seq` counting from 1 in this log;
 * - a mark, written just before a newer snapshot replaces the file:
 *   `{"snapshot":"<sha256>","seq":n}` (that snapshot holds commits 1..n of this log), or without
 *   `seq` (it holds every commit of this log).
 *
 * Reading: the snapshot's hash names the header (every commit applies) or a mark (the commits
 * after its `seq` apply); a log that names neither was written for another snapshot and is not
 * applied. A last line without its newline was never acknowledged and is left out.
 */
import { createHash } from "node:crypto";
import { applyEntityPatch, type EntityPatches } from "./entity-patch.js";
import type { StatesByFake } from "./types.js";

/** What a state file's log is called: the state file's name with this after it. */
export const STATE_LOG_SUFFIX = ".log";

/** The log beside a state file. @example stateLogPath("run/state.json") // "run/state.json.log" */
export const stateLogPath = (stateFile: string): string => `${stateFile}${STATE_LOG_SUFFIX}`;

/** A log's first line. */
export interface StateLogHeader {
  stateLog: 1;
  snapshot: string;
}

/** One commit of a log. */
export interface StateLogCommit {
  seq: number;
  fake: string;
  changes: EntityPatches;
}

/** A newer snapshot's mark: it holds this log's commits up to `seq` (every one without it). */
export interface StateLogMark {
  snapshot: string;
  seq?: number;
}

/**
 * The hash a log names its snapshot by: sha256 of the snapshot file's bytes, hex.
 *
 * @example snapshotHash('{\n  "notes": {}\n}\n')
 */
export function snapshotHash(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The snapshot's text as serve writes it: pretty-printed JSON and a newline. */
export const snapshotText = (states: unknown): string => `${JSON.stringify(states, null, 2)}\n`;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A line of a log, checked for its shape; an error says which shape it lacks. */
export function parseStateLogLine(text: string): StateLogHeader | StateLogCommit | StateLogMark {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("not JSON");
  }
  if (!isObject(value)) throw new Error("not an object");
  if (value.stateLog !== undefined) {
    if (value.stateLog !== 1 || typeof value.snapshot !== "string") throw new Error("a header of a log version this reader does not know");
    return value as unknown as StateLogHeader;
  }
  if (typeof value.fake === "string") {
    if (!Number.isSafeInteger(value.seq) || !isObject(value.changes)) throw new Error("a commit without a whole seq or an object of changes");
    return value as unknown as StateLogCommit;
  }
  if (typeof value.snapshot === "string" && (value.seq === undefined || Number.isSafeInteger(value.seq))) return value as unknown as StateLogMark;
  throw new Error("neither a header, a commit nor a snapshot's mark");
}

/**
 * Applies one commit's patches to a world, leaving `states` untouched (unchanged fakes and
 * entities are shared with it). An entity a patch removes is left out.
 *
 * @example applyStateCommit({ notes: { counter: 1 } }, "notes", { counter: [{ op: "replace", path: "", value: 2 }] })
 */
export function applyStateCommit(states: StatesByFake, fake: string, changes: EntityPatches): StatesByFake {
  const entities: Record<string, unknown> = { ...(states[fake] ?? {}) };
  for (const [name, patch] of Object.entries(changes)) {
    const value = applyEntityPatch(entities[name], patch);
    if (value === undefined) delete entities[name];
    // Defined, not assigned: an entity a hostile log names `__proto__` stays a key, as JSON reads it.
    else Object.defineProperty(entities, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return { ...states, [fake]: entities };
}

/** The commits of a log's lines that apply to the snapshot whose hash is `hash`, or why none do. */
export function commitsForSnapshot(
  lines: ReadonlyArray<StateLogHeader | StateLogCommit | StateLogMark>,
  hash: string,
): { commits: StateLogCommit[] } | { foreign: true } {
  const header = lines[0];
  if (!header || !("stateLog" in header)) throw new Error("its first line is not a log's header");
  const commits = lines.filter((line): line is StateLogCommit => "fake" in line);
  // The newest mark naming this snapshot wins over the header: a new world started on the same
  // file (a session's reset, a new run) writes the seed's snapshot again, the very bytes the old
  // log's header names, and only the mark says the old log's commits are not in it.
  for (let i = lines.length - 1; i > 0; i--) {
    const line = lines[i];
    if ("fake" in line || "stateLog" in line || line.snapshot !== hash) continue;
    const after = line.seq;
    return { commits: after === undefined ? [] : commits.filter((commit) => commit.seq > after) };
  }
  if (header.snapshot === hash) return { commits };
  return { foreign: true };
}

/**
 * The world a snapshot and its log's lines stand for: the snapshot with every commit the log
 * holds after it applied in order. A log written for another snapshot changes nothing.
 *
 * @example replayStateLog(JSON.parse(text), snapshotHash(text), logText.split("\n").filter(Boolean).map(parseStateLogLine))
 */
export function replayStateLog(snapshot: StatesByFake, hash: string, lines: ReadonlyArray<StateLogHeader | StateLogCommit | StateLogMark>): StatesByFake {
  const found = commitsForSnapshot(lines, hash);
  if ("foreign" in found) return snapshot;
  let states = snapshot;
  for (const commit of found.commits) states = applyStateCommit(states, commit.fake, commit.changes);
  return states;
}
