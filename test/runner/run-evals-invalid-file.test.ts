import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runEvals } from "../../engine/eval/runner/index.js";

// An evals file that cannot be loaded stops the run before it touches its results: no results
// folder or lock is left behind where the command was run by mistake.
const dir = mkdtempSync(join(tmpdir(), "eval-simulate-invalid-evals-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("runEvals on an evals file that cannot be loaded", () => {
  it("throws the file's diagnostics and creates no results folder", async () => {
    const out = join(dir, "eval-results", "run.ndjson");
    await expect(runEvals({ evals: join(dir, "evals.yaml"), out })).rejects.toThrow(/E_IO|does not exist/);
    expect(existsSync(join(dir, "eval-results"))).toBe(false);
  });
});
