import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type LoadedFakes, loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { type EvalCase, judgeRun } from "../../engine/entries/judge.js";
import { runCli } from "../support/cli-process.js";
import { copyRecipe } from "../support/evals-files.js";
import { ROOT } from "../support/examples.js";
import { CLOCK } from "../support/services.js";

/**
 * `^(.|\s)*won$` on JavaScript's engine doubles its time with every space of a text that does not
 * end in "won" (28 spaces: 35 s); on RE2 it is linear. Each text below is 10,000 characters: a
 * backtracking engine would never finish inside the test's timeout.
 */
const EVIL = "^(.|\\s)*won$";
const SPACES = " ".repeat(10_000);

let fakes: LoadedFakes;
beforeAll(async () => {
  fakes = await loadFakes(join(ROOT, "examples/crm/fakes.yaml"), { clock: CLOCK });
});

const search = (query: string) => ({
  server: "crm",
  tool: "search-records",
  args: { object: "deals", query },
  result: { content: [{ type: "text", text: "[]" }] },
});

describe("the judge's patterns run on RE2", () => {
  it("judges answer.pattern on a 10,000-character answer at once, matching or not", async () => {
    const c: EvalCase = { id: "answer", expect: { answer: { pattern: EVIL } } };
    const failing = await judgeRun({ fakes, case: c, run: { initial: {}, final: {}, calls: [], answer: SPACES } });
    expect(failing.results.find((r) => r.assertion === "answer.pattern")).toMatchObject({ status: "failed" });
    const passing = await judgeRun({ fakes, case: c, run: { initial: {}, final: {}, calls: [], answer: `${SPACES}won` } });
    expect(passing.results.find((r) => r.assertion === "answer.pattern")).toMatchObject({ status: "passed" });
  });

  it("judges a call's $pattern argument on a 10,000-character value at once, with JavaScript's flags", async () => {
    const c: EvalCase = { id: "calls", expect: { calls: [{ tool: "crm/search-records", arguments: { query: { $pattern: EVIL } } }] } };
    const failing = await judgeRun({ fakes, case: c, run: { initial: {}, final: {}, calls: [search(SPACES)] } });
    expect(failing.results[0]).toMatchObject({ kind: "calls", status: "failed" });
    const passing = await judgeRun({ fakes, case: c, run: { initial: {}, final: {}, calls: [search(`${SPACES}WON`)] } });
    expect(passing.results[0]).toMatchObject({ status: "failed" });
    const folded: EvalCase = { id: "calls", expect: { calls: [{ tool: "crm/search-records", arguments: { query: { $pattern: EVIL, $flags: "i" } } }] } };
    const insensitive = await judgeRun({ fakes, case: folded, run: { initial: {}, final: {}, calls: [search(`${SPACES}WON`)] } });
    expect(insensitive.results[0]).toMatchObject({ status: "passed" });
  });
});

describe("validate on an evals file's patterns", { timeout: 120_000 }, () => {
  it("refuses lookaround and backreferences, which RE2 cannot run, at their file:line:column with a hint", async () => {
    const dir = copyRecipe("crm");
    const file = join(dir, "evals.yaml");
    writeFileSync(
      file,
      `version: 1
fakes: fakes.yaml
cases:
  - id: patterns
    expect:
      calls: [{ tool: crm/search-records, arguments: { query: { $pattern: "(\\\\w)\\\\1" } } }]
      answer: { pattern: "(?=x)" }
`,
    );
    const { code, stdout } = await runCli(["validate", file]);
    expect(stdout).toMatch(
      /evals\.yaml:6:75 error E_PATTERN the pattern \/\(\\w\)\\1\/ uses a backreference, which RE2, the judge's linear-time engine, cannot run/,
    );
    expect(stdout).toMatch(/evals\.yaml:7:26 error E_PATTERN the pattern \/\(\?=x\)\/ uses lookaround, which RE2, the judge's linear-time engine, cannot run/);
    expect(stdout).toMatch(/hint: .*RE2/);
    expect(code).toBe(1);
  });
});
