import { type ArgsDef, defineCommand } from "citty";
import { summarize } from "../engine/eval/results/index.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { formatArg } from "./formats.js";
import { renderReport, REPORT_FORMATS } from "./render-report.js";
import { readRun } from "./results-files.js";

const args = {
  results: {
    type: "positional",
    required: true,
    description: "NDJSON results files (eval --out), folders of them or quoted globs: several are merged into one run (shards)",
    valueHint: "results.ndjson…",
  },
  format: formatArg("How to print the report", REPORT_FORMATS),
} satisfies ArgsDef;

/** `eval-simulate report results.ndjson… --format …`: results files merged and rendered; exits as the run would have. */
export default defineCommand({
  meta: {
    name: "report",
    description:
      "Render eval results files (NDJSON; several, folders or globs are merged into one run, each trial once) as text, markdown, junit or json. Exit codes as eval's: 0 pass, 1 fail, 2 PRELIMINARY or a usage error.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    const run = readRun(parsed._.map(String));
    if ("error" in run) {
      process.stderr.write(`eval-simulate report: ${run.error}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const summary = summarize(run.lines, { ...(run.plannedTrials !== undefined ? { plannedTrials: run.plannedTrials } : {}), notes: run.notes });
    process.stdout.write(renderReport(summary, run.lines, parsed.format as (typeof REPORT_FORMATS)[number]));
    process.exitCode = summary.exitCode;
  },
});
