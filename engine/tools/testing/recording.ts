import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** The two hooks around a test run that records its calls. */
export interface Recording {
  /** Empties the recording (creating its folder), before any test records to it. */
  globalSetup(): void;
  /** Sorts the recording's lines, after every test has recorded to it. */
  globalTeardown(): void;
}

/** A path given as a string or a file: URL. */
export function filePath(file: string | URL): string {
  return file instanceof URL || file.startsWith("file:") ? fileURLToPath(file) : file;
}

/**
 * The global setup and teardown of a run whose tests record their calls to one JSONL file:
 * emptied before, its lines sorted after, so the committed file is the same whatever order
 * the test files ran in. Run them as a runner's global hooks, or as `before`/`after` hooks of
 * the one file that records.
 *
 * @example
 * // tests/recording.js
 * export const RECORD = new URL("./responses.jsonl", import.meta.url).pathname;
 * export const { globalSetup, globalTeardown } = recording(RECORD);
 */
export function recording(file: string | URL): Recording {
  const path = filePath(file);
  return {
    globalSetup() {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, "");
    },
    globalTeardown() {
      if (!existsSync(path)) return;
      const lines = readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "");
      // Code-unit order: the same in every locale, so the file never changes with the machine.
      lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      writeFileSync(path, lines.length > 0 ? `${lines.join("\n")}\n` : "");
    },
  };
}
