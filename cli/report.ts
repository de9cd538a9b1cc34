import { existsSync } from "node:fs";
import { type ArgsDef, defineCommand } from "citty";
import { readResults } from "../engine/eval/results/index.js";
import { summarize } from "../engine/eval/results/index.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { formatArg } from "./formats.js";
import { renderReport, REPORT_FORMATS } from "./render-report.js";

const args = {
  results: { type: "positional", required: true, description: "An NDJSON results file (eval --out)", valueHint: "results.ndjson" },
  format: formatArg("How to print the report", REPORT_FORMATS),
} satisfies ArgsDef;

/** `eval-simulate report results.ndjson --format …`: a results file rendered; exits as the run would have. */
export default defineCommand({
  meta: {
    name: "report",
    description: "Render an eval results file (NDJSON) as text, markdown, junit or json. Exit codes as eval's: 0 pass, 1 fail, 2 PRELIMINARY or a usage error.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    if (!existsSync(parsed.results)) {
      process.stderr.write(`eval-simulate report: ${parsed.results} does not exist\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    let lines: ReturnType<typeof readResults>;
    try {
      lines = readResults(parsed.results, (message) => process.stderr.write(`${message}\n`));
    } catch (error) {
      process.stderr.write(`eval-simulate report: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const summary = summarize(lines);
    process.stdout.write(renderReport(summary, lines, parsed.format as (typeof REPORT_FORMATS)[number]));
    process.exitCode = summary.exitCode;
  },
});
