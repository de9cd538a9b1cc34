/**
 * A trial line as the runner writes one, for tests that build results files by hand: one passed
 * trial of case "c" with nothing spent, changed by `over`.
 *
 * @example writeFileSync(file, `${JSON.stringify(trialLine({ case: "a", status: "fail" }))}\n`);
 */
import type { TrialLine } from "../../engine/eval/results/index.js";

export function trialLine(over: Partial<TrialLine> = {}): TrialLine {
  return {
    case: "c",
    iteration: 0,
    model: "script",
    status: "pass",
    assertions: [],
    calls: 0,
    requests: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    costUsd: 0,
    durationMs: 1,
    startedAt: "2026-11-30T00:00:00Z",
    ...over,
  };
}
