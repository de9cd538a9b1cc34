import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandPaths } from "../../engine/core/files/glob-paths.js";

function tree(): string {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-paths-"));
  for (const file of ["a.ndjson", "b.ndjson", "notes.txt", ".hidden.ndjson", "shards/1/s.ndjson", "shards/2/s.ndjson", "shards/2/deeper/t.ndjson"]) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), "");
  }
  return dir;
}

describe("the results files a command line names", () => {
  it("takes a file, a folder's files of one ending (below it too), and globs with *, ? and **", () => {
    const dir = tree();
    const rel = (paths: string[]) => paths.map((p) => p.slice(dir.length + 1));
    expect(rel(expandPaths("a.ndjson", ".ndjson", dir))).toEqual(["a.ndjson"]);
    expect(rel(expandPaths("shards", ".ndjson", dir))).toEqual(["shards/1/s.ndjson", "shards/2/deeper/t.ndjson", "shards/2/s.ndjson"]);
    expect(rel(expandPaths("*.ndjson", ".ndjson", dir))).toEqual(["a.ndjson", "b.ndjson"]);
    expect(rel(expandPaths("?.ndjson", ".ndjson", dir))).toEqual(["a.ndjson", "b.ndjson"]);
    expect(rel(expandPaths(".*.ndjson", ".ndjson", dir))).toEqual([".hidden.ndjson"]);
    expect(rel(expandPaths("shards/*/s.ndjson", ".ndjson", dir))).toEqual(["shards/1/s.ndjson", "shards/2/s.ndjson"]);
    expect(rel(expandPaths("shards/**/*.ndjson", ".ndjson", dir))).toEqual(["shards/1/s.ndjson", "shards/2/deeper/t.ndjson", "shards/2/s.ndjson"]);
    expect(rel(expandPaths(`${dir}/*.txt`, ".ndjson", "/"))).toEqual(["notes.txt"]);
    expect(expandPaths("missing.ndjson", ".ndjson", dir)).toEqual([]);
    expect(expandPaths("nothing-*.ndjson", ".ndjson", dir)).toEqual([]);
  });

  it("walks no symbolic link to a folder, so a loop cannot hold it", () => {
    const dir = tree();
    symlinkSync(dir, join(dir, "shards", "loop"));
    expect(expandPaths("shards", ".ndjson", dir)).toHaveLength(3);
    expect(expandPaths("shards/**/*.ndjson", ".ndjson", dir)).toHaveLength(3);
  });
});
