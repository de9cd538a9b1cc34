import { existsSync } from "node:fs";
import { type ArgsDef, defineCommand } from "citty";
import { readResults } from "../engine/eval/results/index.js";
import { compareRuns } from "../engine/eval/results/index.js";
import { renderCompareJson, renderCompareMarkdown, renderCompareText } from "../engine/eval/results/index.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { formatArg } from "./formats.js";

const args = {
  baseline: { type: "positional", required: true, description: "The baseline run's results (NDJSON)", valueHint: "base.ndjson" },
  candidate: { type: "positional", required: true, description: "The candidate run's results (NDJSON), e.g. a --variant run", valueHint: "candidate.ndjson" },
  format: formatArg("How to print the comparison", ["text", "markdown", "json"]),
  z: { type: "string", description: "Standard errors a pass-rate difference must pass to count (default 1.96: 95%)" },
} satisfies ArgsDef;

/** `eval-simulate compare base.ndjson candidate.ndjson`: pass rate, tools, cases and a proposal. */
export default defineCommand({
  meta: {
    name: "compare",
    description:
      "Compare two runs' results: pass-rate delta, per-tool precision/recall/F1, improved/regressed/unchanged-failing cases, bad calls, and apply/reject/inconclusive. Exit 0, or 2 on a usage error.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    const z = parsed.z === undefined ? 1.96 : Number(parsed.z);
    const missing = [parsed.baseline, parsed.candidate].find((file) => !existsSync(file));
    if (missing !== undefined || !Number.isFinite(z) || z <= 0) {
      process.stderr.write(
        missing !== undefined ? `eval-simulate: no results file ${missing}\n` : `eval-simulate: --z takes a positive number (1.96), not "${parsed.z}"\n`,
      );
      process.exitCode = EXIT.usage;
      return;
    }
    const warn = (message: string) => void process.stderr.write(`${message}\n`);
    let runs: [ReturnType<typeof readResults>, ReturnType<typeof readResults>];
    try {
      runs = [readResults(parsed.baseline, warn), readResults(parsed.candidate, warn)];
    } catch (error) {
      process.stderr.write(`eval-simulate compare: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const comparison = compareRuns(runs[0], runs[1], { z });
    const render = parsed.format === "json" ? renderCompareJson : parsed.format === "markdown" ? renderCompareMarkdown : renderCompareText;
    process.stdout.write(render(comparison));
    process.exitCode = EXIT.ok;
  },
});
