import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";
import { writeEvals } from "../support/evals-files.js";
import { trialLine } from "../support/trial-lines.js";

/**
 * A results file is read back by `report`, `compare` and a resumed `eval`, often from a CI
 * artifact: a line of the wrong shape, a line without end, a FIFO or a device must each end in
 * a message naming the file (and line) and exit 2, never a stack trace, a hang or a full memory.
 */
const root = mkdtempSync(join(tmpdir(), "eval-simulate-hostile-results-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A stack trace line (diagnostics say "  at <path>", two spaces). */
const STACK = /^ {4}at /m;
const GOOD = JSON.stringify(trialLine({ case: "a" }));
let files = 0;

function results(text: string): string {
  const file = join(root, `results-${++files}.ndjson`);
  writeFileSync(file, text);
  return file;
}

async function cli(args: string[]) {
  const result = await runCli(args);
  expect(result.stdout + result.stderr).not.toMatch(STACK);
  return result;
}

describe("report, compare and eval on a hostile results file", { timeout: 120_000 }, () => {
  it("report names the line whose fields have the wrong types, and exits 2", async () => {
    const file = results(`${GOOD}\n${JSON.stringify({ ...JSON.parse(GOOD), iteration: 1, assertions: "x", usage: null })}\n`);
    const { code, stderr } = await cli(["report", file]);
    expect(stderr).toContain(`${file}:2: not a trial line: assertions must be a list`);
    expect(code).toBe(2);
  });

  it("report refuses a line past the line cap (a 20 MB answer), naming it", async () => {
    const file = results(`${GOOD}\n${JSON.stringify({ ...JSON.parse(GOOD), iteration: 1, answer: "x".repeat(20 * 1024 * 1024) })}\n`);
    const { code, stderr } = await cli(["report", file]);
    expect(stderr).toContain(`${file}:2: the line is longer than 16 MiB`);
    expect(code).toBe(2);
  });

  it("report refuses a file past the total cap before reading it", async () => {
    const file = results(`${GOOD}\n`);
    truncateSync(file, 600 * 1024 * 1024);
    const { code, stderr } = await cli(["report", file]);
    expect(stderr).toContain(`${file} is larger than 512 MiB`);
    expect(code).toBe(2);
  });

  it("report and compare refuse a FIFO and /dev/zero without hanging on them", async () => {
    const fifo = join(root, "fifo.ndjson");
    execFileSync("mkfifo", [fifo]);
    const zero = join(root, "zero.ndjson");
    symlinkSync("/dev/zero", zero);
    const piped = await cli(["report", fifo]);
    expect(piped.stderr).toContain(`${fifo} is a named pipe (FIFO), not a regular file`);
    expect(piped.code).toBe(2);
    const compared = await cli(["compare", results(`${GOOD}\n`), zero]);
    expect(compared.stderr).toContain(`${zero} is a device, not a regular file`);
    expect(compared.code).toBe(2);
  });

  it("compare names a line that is JSON but not a trial", async () => {
    const { code, stderr } = await cli(["compare", results(`${GOOD}\n[1, 2]\n`), results(`${GOOD}\n`)]);
    expect(stderr).toMatch(/results-\d+\.ndjson:2: not a trial line: it is a list, not an object/);
    expect(code).toBe(2);
  });

  it("eval refuses to resume a results file with a line of the wrong types", async () => {
    const { file, dir } = writeEvals("  - { id: a, script: { calls: [], answer: Done. }, expect: { answer: { contains: Done } } }\n");
    const out = join(dir, "out.ndjson");
    writeFileSync(out, `${JSON.stringify({ ...JSON.parse(GOOD), iteration: "0" })}\n`);
    const { code, stderr } = await cli(["eval", file, "--out", out]);
    expect(stderr).toContain(`${out}:1: not a trial line: iteration must be a whole number of at least 0`);
    expect(code).toBe(2);
  });
});
