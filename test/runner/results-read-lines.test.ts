import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readRegularLines } from "../../engine/core/files/index.js";

const dir = mkdtempSync(join(tmpdir(), "read-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("reading a results file line by line", () => {
  it("gives every line exactly, whether whole in a read chunk or cut by one, multi-byte characters included", () => {
    // Lines of 1 to ~300 KB of "é" (two bytes each) and ASCII: many straddle the 1 MiB read chunks, some cut a character in two.
    const lines = Array.from({ length: 40 }, (_, i) => `${i}:${"é".repeat((i * 7919) % 150_000)}${"x".repeat(i % 3)}`);
    const file = join(dir, "lines.ndjson");
    writeFileSync(file, `${lines.join("\n")}\nlast without a newline`);
    const seen: Array<[string, number, boolean]> = [];
    const read = readRegularLines(file, { maxLineBytes: 1 << 20, maxBytes: 64 << 20 }, (text, n, unterminated) => seen.push([text, n, unterminated]));
    expect(read.ok).toBe(true);
    expect(seen.map(([text]) => text)).toEqual([...lines, "last without a newline"]);
    expect(seen.map(([, n]) => n)).toEqual(lines.map((_, i) => i + 1).concat(41));
    expect(seen.filter(([, , unterminated]) => unterminated).map(([, n]) => n)).toEqual([41]);
  });
});
