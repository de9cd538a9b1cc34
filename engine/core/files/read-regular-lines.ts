/**
 * Reading a line-per-record file (a call record, a results file) a line at a time, under the
 * same rules as `readRegularFile`: never a FIFO, a device or a pseudo-file, and bounded twice, by
 * the longest line and by the whole file, so a file of one endless line or of endless lines is
 * refused at the cap instead of filling the memory. Node built-ins only.
 */
import { closeSync, readSync } from "node:fs";
import { type FileRefusal, openRegularFile, sizeText } from "./read-regular-file.js";

/** The caps of one read: the longest line and the whole file, in bytes. */
export interface LineLimits {
  maxLineBytes: number;
  maxBytes: number;
}

/** A file read line by line, or why it was not (`line` when a line was refused). */
export type LinesRead = { ok: true; lines: number; bytes: number; endsWithNewline: boolean } | (FileRefusal & { line?: number });

const CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Calls `onLine` with each line of a regular file (without its newline), numbered from 1, in
 * order; `unterminated` is true for a last line that no newline ends (a write cut short). An
 * error `onLine` throws ends the read and is thrown on, the file closed.
 *
 * @example
 * const read = readRegularLines("run/record.jsonl", { maxLineBytes: 16 << 20, maxBytes: 256 << 20 }, (text, n) => parse(text, n));
 * if (!read.ok) throw new Error(`${file}${read.line ? `:${read.line}` : ""}: ${read.reason}`);
 */
export function readRegularLines(file: string, limits: LineLimits, onLine: (text: string, number: number, unterminated: boolean) => void): LinesRead {
  const opened = openRegularFile(file, limits.maxBytes);
  if (!opened.ok) return opened;
  const chunk = Buffer.allocUnsafe(CHUNK);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let number = 0;
  let total = 0;
  let last = NEWLINE;
  try {
    for (;;) {
      const read = readSync(opened.fd, chunk, 0, CHUNK, null);
      if (read === 0) break;
      total += read;
      if (total > limits.maxBytes) return { ok: false, code: "EFBIG", reason: `is larger than ${sizeText(limits.maxBytes)}` };
      last = chunk[read - 1];
      const view = chunk.subarray(0, read);
      let start = 0;
      while (start < read) {
        const newline = view.indexOf(NEWLINE, start);
        const end = newline === -1 ? read : newline;
        if (pendingBytes + end - start > limits.maxLineBytes)
          return { ok: false, code: "ELINE", line: number + 1, reason: `the line is longer than ${sizeText(limits.maxLineBytes)}` };
        if (newline === -1) {
          // The chunk is reused by the next read: the start of a line it cuts is copied out of it.
          if (end > start) pending.push(Buffer.from(view.subarray(start, end)));
          pendingBytes += end - start;
          break;
        }
        number++;
        // A line whole in this chunk is decoded from it directly; one begun in an earlier chunk, from its parts.
        if (pendingBytes === 0) onLine(view.toString("utf8", start, end), number, false);
        else {
          if (end > start) pending.push(Buffer.from(view.subarray(start, end)));
          onLine(Buffer.concat(pending, pendingBytes + end - start).toString("utf8"), number, false);
        }
        pending = [];
        pendingBytes = 0;
        start = newline + 1;
      }
    }
    if (pendingBytes > 0) {
      number++;
      onLine(Buffer.concat(pending, pendingBytes).toString("utf8"), number, true);
    }
    return { ok: true, lines: number, bytes: total, endsWithNewline: last === NEWLINE };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string" && (error as NodeJS.ErrnoException).syscall === "read") return { ok: false, code, reason: `cannot be read (${code})` };
    throw error;
  } finally {
    closeSync(opened.fd);
  }
}
