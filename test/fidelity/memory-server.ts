import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../support/examples.js";

/** The real @modelcontextprotocol/server-memory (a dev dependency), run by node. */
export const MEMORY_SERVER = join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

/** A command line running the real memory server with its storage in a fresh temp folder. */
export function memoryCommand(): string {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-memory-"));
  return `MEMORY_FILE_PATH=${join(dir, "memory.jsonl")} ${JSON.stringify(process.execPath)} ${JSON.stringify(MEMORY_SERVER)}`;
}
