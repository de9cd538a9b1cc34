import { rmSync } from "node:fs";
import { join } from "node:path";

/** The files of a run folder (`serve --run-dir`), under fixed names: what `readRun` and `verify --run` read. */
export const RUN_FILES = {
  record: "record.jsonl",
  initialState: "initial-state.json",
  state: "state.json",
  manifests: "manifests",
  /** Written by the agent's harness, not by serve: the agent's final message. */
  answer: "answer.txt",
  /** Written by the agent's harness, not by serve: the conversation, whose last assistant message is the answer. */
  transcript: "transcript.json",
} as const;

/**
 * The serve options a run folder stands for: the record, the initial and final state files and
 * the manifest dir under fixed names.
 *
 * @example startServices(fakes, { world, ...runDirOptions("runs/1") });
 */
export function runDirOptions(dir: string): { record: string; initialStateFile: string; stateFile: string; manifestDir: string } {
  return {
    record: join(dir, RUN_FILES.record),
    initialStateFile: join(dir, RUN_FILES.initialState),
    stateFile: join(dir, RUN_FILES.state),
    manifestDir: join(dir, RUN_FILES.manifests),
  };
}

/**
 * Readies a run folder for a run: it holds one run, so a record an earlier run left there is
 * removed, unless this run resumes that one (its record goes on).
 *
 * @example startRunDir("runs/1", options);
 */
export function startRunDir(dir: string, options: { record?: string; resume?: unknown }): void {
  const record = join(dir, RUN_FILES.record);
  if (options.resume === undefined && options.record === record) rmSync(record, { force: true });
}
