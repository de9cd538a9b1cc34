import { mkdtempSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runPool } from "../../engine/eval/runner/concurrency-pool.js";
import { progressLine } from "../../engine/eval/runner/progress-bar.js";
import { missingKeys, skipMessage } from "../../engine/eval/models/keyless.js";
import { passAtK, passHatK } from "../../engine/eval/results/pass-at-k.js";
import { appendResult, doneTrials, readResults, type TrialLine, trialKey } from "../../engine/eval/results/results-file.js";
import { budgetLimit, SpendLedger } from "../../engine/eval/models/run-budget.js";
import { exitCodeOf, runVerdict } from "../../engine/eval/results/run-status.js";
import { UnknownPriceError } from "../../engine/eval/models/pricing.js";
import { trialLine } from "../support/trial-lines.js";

const line = (over: Partial<TrialLine>): TrialLine => trialLine(over);

describe("pass@k and pass^k", () => {
  it("estimates pass@k and pass^k without bias from n trials and c passes", () => {
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3);
    expect(passHatK(10, 3, 1)).toBeCloseTo(0.3);
    expect(passHatK(4, 3, 2)).toBeCloseTo(0.5);
    expect(passAtK(4, 3, 2)).toBe(1);
    expect(passHatK(4, 4, 4)).toBe(1);
    expect(passHatK(4, 3, 4)).toBe(0);
    expect(passAtK(4, 0, 4)).toBe(0);
    expect(passAtK(0, 0, 1)).toBeNaN();
  });

  it("stays a number for thousands of trials, where the binomial coefficients pass the largest double", () => {
    expect(passHatK(2000, 2000, 1000)).toBe(1);
    expect(passHatK(2000, 1999, 1000)).toBeCloseTo(0.5, 12);
    expect(passAtK(2000, 1, 1000)).toBeCloseTo(0.5, 12);
    expect(passAtK(2000, 0, 1000)).toBe(0);
  });
});

describe("the results file", () => {
  it("keeps judged trials as done, retries trials not run, and skips a torn last line", () => {
    const file = join(mkdtempSync(join(tmpdir(), "results-")), "deep", "run.ndjson");
    expect(readResults(file)).toEqual([]);
    appendResult(file, line({ iteration: 0, status: "pass" }));
    appendResult(file, line({ iteration: 1, status: "not_run", reason: "HTTP 500" }));
    appendResult(file, line({ iteration: 2, status: "fail" }));
    appendResult(file, line({ iteration: 1, status: "pass" }));
    appendFileSync(file, '{"case":"c","iter');
    const warnings: string[] = [];
    const lines = readResults(file, (w) => warnings.push(w));
    expect(lines.map((l) => `${l.iteration}:${l.status}`)).toEqual(["0:pass", "2:fail", "1:pass"]);
    expect(warnings).toHaveLength(1);
    expect(doneTrials(readResults(file)).has(trialKey({ case: "c", iteration: 1, model: "script" }))).toBe(true);
    expect(doneTrials([line({ status: "not_run" }), line({ iteration: 1, status: "skipped" })]).size).toBe(0);
  });
});

describe("the concurrency pool", () => {
  it("never runs more than its limit at once and stops starting tasks when told", async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await runPool([...Array(20).keys()], 3, async (item) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 2));
      seen.push(item);
      running--;
    });
    expect(most).toBe(3);
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
    const started: number[] = [];
    await runPool([...Array(20).keys()], 2, async (item, _i, pool) => {
      started.push(item);
      if (item === 4) pool.stop();
    });
    expect(started.length).toBeLessThan(8);
  });

  it("rethrows a task's error once the others have settled", async () => {
    await expect(
      runPool([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
  });
});

describe("the run's verdict and exit code", () => {
  const counts = { passedCases: 2, failedCases: 0, notRun: 0, skipped: 0, judged: 8, stopped: false };
  it("passes, fails, or is PRELIMINARY when trials were lost, and a keyless run exits 0", () => {
    expect(runVerdict(counts)).toBe("pass");
    expect(runVerdict({ ...counts, failedCases: 1 })).toBe("fail");
    expect(runVerdict({ ...counts, failedCases: 1, notRun: 1 })).toBe("preliminary");
    expect(runVerdict({ ...counts, stopped: true })).toBe("preliminary");
    expect(runVerdict({ ...counts, passedCases: 0, judged: 0, skipped: 4 })).toBe("skipped");
    expect([exitCodeOf("pass"), exitCodeOf("fail"), exitCodeOf("preliminary"), exitCodeOf("skipped")]).toEqual([0, 1, 2, 0]);
  });
});

describe("keys and budgets", () => {
  it("names the variable of each model without a key, once", () => {
    const missing = missingKeys(
      [
        { model: "anthropic:claude-sonnet-4-5" },
        { model: "anthropic:claude-sonnet-4-5" },
        { model: "openai:gpt-4.1" },
        { model: "openai-compatible:qwen3", baseURL: "http://127.0.0.1:1/v1" },
      ],
      { OPENAI_API_KEY: "sk" },
    );
    expect(missing).toEqual([{ model: "anthropic:claude-sonnet-4-5", variable: "ANTHROPIC_API_KEY" }]);
    expect(skipMessage(missing)).toContain("ANTHROPIC_API_KEY");
  });

  it("counts every model's requests against one limit and refuses a model without a price", () => {
    expect(budgetLimit(undefined, { EVAL_BUDGET_USD: "2.5" })).toBe(2.5);
    expect(() => budgetLimit("lots", {})).toThrow(/budget/);
    expect(() => new SpendLedger(1, ["openai:unknown-model"])).toThrow(UnknownPriceError);
    // The refusal says how to give the price from the CLI too, where there is no prices option.
    expect(() => new SpendLedger(1, ["openai:unknown-model"])).toThrow(/--prices prices\.json/);
    const ledger = new SpendLedger(0.01, ["openai:gpt-4.1", "anthropic:claude-sonnet-4-5"]);
    ledger.forModel("openai:gpt-4.1").charge({ inputTokens: 1000, outputTokens: 100 }); // 0.0028
    const claude = ledger.forModel("anthropic:claude-sonnet-4-5");
    expect(claude.allows()).toBe(true);
    claude.charge({ inputTokens: 1000, outputTokens: 100 }); // 0.0045
    expect(ledger.spentUsd).toBeCloseTo(0.0073);
    expect(ledger.allows()).toBe(false);
  });
});

describe("the progress line", () => {
  it("shows trials done of all, passes and spend", () => {
    expect(progressLine({ done: 3, total: 12, passed: 2, spentUsd: 0.0421 }, 8)).toBe("[##......] 3/12 trials, 2 passed, $0.0421 spent");
  });
});
