import { relative } from "node:path";
import { type ArgsDef, defineCommand } from "citty";
import { fetchRun, judgeRun, loadEvals, readRun, type Run } from "../engine/entries/judge.js";
import { ManifestError } from "../engine/author/source/index.js";
import { judgeModels, rubricJudge } from "../engine/eval/rubrics/index.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { formatArg } from "./formats.js";
import { renderText } from "./render-diagnostics.js";
import { renderVerdictGithub, renderVerdictJson, renderVerdictJunit, renderVerdictText } from "./render-verdict.js";

const args = {
  evals: { type: "positional", required: false, default: "evals.yaml", description: "The evals file holding the case", valueHint: "evals.yaml" },
  case: { type: "string", description: "The id of the case to judge (may be left out when the file has one case)" },
  run: { type: "string", description: "A run folder, as serve --run-dir writes it" },
  server: { type: "string", description: "Instead of --run: a live server's URL, read through its admin routes" },
  token: { type: "string", description: "With --server: the admin token (default EVAL_SIMULATE_ADMIN_TOKEN)" },
  answer: { type: "string", description: "With --server: the agent's final message, for `answer` expectations" },
  "allow-outside": { type: "boolean", description: "Also load a fakes manifest outside the evals file's folder (EVAL_SIMULATE_ALLOW_OUTSIDE=1)" },
  format: formatArg("How to print the verdict", ["text", "json", "junit", "github"]),
  "judge-model": {
    type: "string",
    description: "Judge every rubric with this model (provider:model) instead of the file's judgeModel and the rubrics' own",
    valueHint: "anthropic:claude-sonnet-4-5",
  },
  "refresh-judgments": {
    type: "boolean",
    description: "Ask the judge model again even where the judgments file beside the evals file has a judgment (the new one replaces it)",
  },
} satisfies ArgsDef;

const VERDICT_EXIT = { pass: EXIT.ok, fail: EXIT.invalid, not_evaluated: EXIT.usage, skipped: EXIT.ok } as const;

function usage(message: string): void {
  process.stderr.write(`eval-simulate verify: ${message}\n`);
  process.exitCode = EXIT.usage;
}

/** `eval-simulate verify [evals.yaml] --case ID --run DIR`: judge one recorded run; exit 0 pass (or skipped: rubrics no judge could grade), 1 fail, 2 not evaluated or usage. */
export default defineCommand({
  meta: {
    name: "verify",
    description:
      "Judge a recorded run against a case of an evals file. Exit 0 pass (or skipped: all that is missing is rubrics with no cached judgment and no key), 1 fail, 2 not evaluated or usage error.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    if ((parsed.run === undefined) === (parsed.server === undefined)) return usage("give one of --run DIR (a run folder) or --server URL");
    const file = parsed.evals ?? "evals.yaml";
    let loaded: Awaited<ReturnType<typeof loadEvals>>;
    try {
      loaded = await loadEvals(file, parsed["allow-outside"] ? { allowOutside: true } : {});
    } catch (error) {
      if (!(error instanceof ManifestError)) throw error;
      process.stderr.write(renderText([{ file, valid: false, diagnostics: error.diagnostics }]));
      process.exitCode = EXIT.usage;
      return;
    }
    const cases = loaded.evals.cases ?? [];
    const id = parsed.case ?? (cases.length === 1 ? cases[0].id : undefined);
    if (id === undefined) return usage(`name the case with --case: ${cases.map((c) => c.id).join(", ") || "the file has no cases"}`);
    const chosen = cases.find((c) => c.id === id);
    if (!chosen) return usage(`no case "${id}" in ${file}; its cases: ${cases.map((c) => c.id).join(", ")}`);
    let run: Run;
    try {
      run =
        parsed.run !== undefined
          ? readRun(parsed.run)
          : await fetchRun(parsed.server!, Object.keys(loaded.fakes.fakes), {
              token: parsed.token ?? process.env.EVAL_SIMULATE_ADMIN_TOKEN,
              answer: parsed.answer,
            });
    } catch (error) {
      return usage((error as Error).message.replace(/^\[eval-simulate\] /, ""));
    }
    let rubrics: ReturnType<typeof rubricJudge> | undefined;
    if ((chosen.expect.rubrics ?? []).length > 0) {
      try {
        const judging = { judgeModel: loaded.evals.judgeModel, override: parsed["judge-model"] };
        judgeModels([chosen], { ...judging, judgeBaseURL: loaded.evals.judgeBaseURL });
        rubrics = rubricJudge({
          evalsFile: loaded.file,
          ...judging,
          judgeBaseURL: loaded.evals.judgeBaseURL,
          refresh: parsed["refresh-judgments"] === true,
          env: process.env,
        });
      } catch (error) {
        return usage((error as Error).message.replace(/^\[eval-simulate\] /, ""));
      }
    }
    let verdict: Awaited<ReturnType<typeof judgeRun>>;
    try {
      verdict = await judgeRun({ fakes: loaded.fakes, case: chosen, run, ...(rubrics ? { rubrics } : {}) });
    } catch (error) {
      return usage(`the judge could not read the run ${parsed.run ?? parsed.server}: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`);
    }
    const shown = relative(process.cwd(), loaded.file) || loaded.file;
    const render = {
      text: () => renderVerdictText(verdict),
      json: () => renderVerdictJson(verdict),
      junit: () => renderVerdictJunit(verdict, shown),
      github: () => renderVerdictGithub(verdict, shown),
    }[parsed.format as "text" | "json" | "junit" | "github"];
    process.stdout.write(render());
    process.exitCode = VERDICT_EXIT[verdict.verdict];
  },
});
