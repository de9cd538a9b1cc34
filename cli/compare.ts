import { type ArgsDef, defineCommand } from "citty";
import { compareRuns } from "../engine/eval/results/index.js";
import { renderCompareJson, renderCompareMarkdown, renderCompareText } from "../engine/eval/results/index.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { formatArg } from "./formats.js";
import { readRun } from "./results-files.js";

const args = {
  baseline: {
    type: "positional",
    required: true,
    description: "The baseline run's results (NDJSON): a file, a folder of them or a quoted glob (shards are merged)",
    valueHint: "base.ndjson",
  },
  candidate: {
    type: "positional",
    required: true,
    description: "The candidate run's results (NDJSON), e.g. a --variant run: a file, a folder or a quoted glob",
    valueHint: "candidate.ndjson",
  },
  format: formatArg("How to print the comparison", ["text", "markdown", "json"]),
  z: { type: "string", description: "Standard errors a pass-rate difference must pass to count (default 1.96: 95%)" },
} satisfies ArgsDef;

/** `eval-simulate compare base.ndjson candidate.ndjson`: pass rate, tools, cases and a proposal. */
export default defineCommand({
  meta: {
    name: "compare",
    description:
      "Compare two runs' results (each a file, a folder or a quoted glob of shards, merged): pass-rate delta, per-tool precision/recall/F1, improved/regressed/unchanged-failing cases, bad calls, and apply/reject/inconclusive. Exit 0, or 2 on a usage error.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    const z = parsed.z === undefined ? 1.96 : Number(parsed.z);
    if (!Number.isFinite(z) || z <= 0) {
      process.stderr.write(`eval-simulate: --z takes a positive number (1.96), not "${parsed.z}"\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    if (parsed._.length > 2) {
      process.stderr.write(
        `eval-simulate: compare takes two runs (a baseline and a candidate); give several files of one run as a folder or a quoted glob ("shards/*.ndjson")\n`,
      );
      process.exitCode = EXIT.usage;
      return;
    }
    const baseline = readRun([parsed.baseline]);
    const candidate = "error" in baseline ? baseline : readRun([parsed.candidate]);
    if ("error" in baseline || "error" in candidate) {
      process.stderr.write(`eval-simulate compare: ${"error" in baseline ? baseline.error : (candidate as { error: string }).error}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const comparison = compareRuns(baseline.lines, candidate.lines, {
      z,
      missingTrials: { baseline: baseline.missingTrials, candidate: candidate.missingTrials },
    });
    const render = parsed.format === "json" ? renderCompareJson : parsed.format === "markdown" ? renderCompareMarkdown : renderCompareText;
    process.stdout.write(render(comparison));
    process.exitCode = EXIT.ok;
  },
});
