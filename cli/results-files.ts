/**
 * The results files `report` and `compare` read: each argument a file, a folder (every .ndjson
 * below it) or a quoted glob, all merged into one run (engine/eval/results/merge-results.ts),
 * what the merge found told on stderr.
 */
import { statSync } from "node:fs";
import { relative, resolve } from "node:path";
import { expandPaths } from "../engine/core/files/index.js";
import { type MergedRun, mergeResults, readResults } from "../engine/eval/results/index.js";

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return true;
  }
};

const shown = (file: string) => relative(process.cwd(), file) || file;

/**
 * The run the arguments name, or why not (a usage error the caller prints).
 *
 * @example const run = readRun(["shards/*.ndjson"]); if ("error" in run) …
 */
export function readRun(args: readonly string[]): MergedRun | { error: string } {
  const files = new Set<string>();
  for (const arg of args) {
    let matched: string[];
    // A path that names something other than a folder is read as it is, so readResults refuses a FIFO or a device by name.
    if (!/[*?[{]/.test(arg) && !isFolder(arg)) {
      files.add(resolve(arg));
      continue;
    }
    try {
      matched = expandPaths(arg, ".ndjson");
    } catch (error) {
      return { error: (error as Error).message.replace(/^\[eval-simulate\] /, "") };
    }
    if (matched.length === 0) return { error: `no results file matches ${arg}` };
    for (const file of matched) files.add(file);
  }
  const warn = (message: string) => void process.stderr.write(`${message}\n`);
  let read: { file: string; lines: ReturnType<typeof readResults> }[];
  try {
    read = [...files].map((file) => ({ file: shown(file), lines: readResults(file, warn) }));
  } catch (error) {
    return { error: (error as Error).message.replace(/^\[eval-simulate\] /, "") };
  }
  const merged = mergeResults(read);
  if (files.size > 1)
    warn(
      `merged ${merged.lines.length} trial${merged.lines.length === 1 ? "" : "s"} from ${files.size} results files${merged.duplicates > 0 ? ` (${merged.duplicates} duplicate line${merged.duplicates === 1 ? "" : "s"} counted once)` : ""}`,
    );
  for (const conflict of merged.conflicts) {
    warn(
      `[eval-simulate] warning: ${conflict.trial} is ${conflict.kept.status} in ${conflict.kept.file} (kept: the later) and ${conflict.dropped.map((d) => `${d.status} in ${d.file}`).join(", ")}`,
    );
  }
  return merged;
}
