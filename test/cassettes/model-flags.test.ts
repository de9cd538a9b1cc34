// eval's --record-models and --replay-models: one at a time, and never with --dry (which asks no model).
import { describe, expect, it } from "vitest";
import evalCommand from "../../cli/eval.js";
import { ROOT } from "../support/examples.js";
import { runInProcess } from "../support/run-command.js";

const EVALS = `${ROOT}examples/offline-agent/evals.yaml`;

describe("eval's model flags", () => {
  it("refuses --record-models with --replay-models", async () => {
    const run = await runInProcess(evalCommand, [EVALS, "--record-models", "--replay-models"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--record-models and --replay-models: give one of them");
  });

  it("refuses either with --dry", async () => {
    for (const flag of ["--record-models", "--replay-models"]) {
      const run = await runInProcess(evalCommand, [EVALS, "--dry", flag]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--dry plays every case's script and asks no model");
    }
  });
});
