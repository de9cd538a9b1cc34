/**
 * The inspector's results panel: an eval run's results file read into per-case pass rates. Lives
 * with the runner, whose summary it is; the CLI hands it to the inspector as its results reader.
 */
import { readResults } from "./results-file.js";
import { summarize } from "./run-summary.js";

/**
 * Per-case pass rates of a results file, as the inspector's panel lists them.
 *
 * @example serveSidecar(fakes, world, { inspect: true, inspectResults: file, inspectResultsReader: resultsPanel });
 */
export async function resultsPanel(file: string) {
  const summary = summarize(readResults(file));
  return {
    file,
    verdict: summary.verdict,
    trials: summary.trials,
    cases: summary.cases.map((c) => ({
      case: c.case,
      model: c.model,
      verdict: c.verdict,
      passed: c.passed,
      judged: c.passed + c.failed + c.notEvaluated,
      notRun: c.notRun,
      passRate: Number.isNaN(c.passRate) ? null : c.passRate,
      k: c.k,
      passHatK: c.passHatK,
      threshold: c.accuracyThreshold,
      meanScore: Number.isNaN(c.meanScore) ? null : c.meanScore,
      // Which assertions failed, not only the verdict: the first messages, as the report lists them.
      failures: c.failures,
      reasons: c.reasons,
    })),
  };
}
