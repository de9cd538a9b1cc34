import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readResults } from "../../engine/eval/results/results-file.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { writeEvals } from "../support/evals-files.js";

const caseOf = (id: string, answer: string) => `
  - id: ${id}
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    iterations: 2
    accuracyThreshold: 1
    host: { type: script }
    script:
      calls: [{ tool: crm/list-tasks, arguments: {} }]
      answer: ${answer}
    expect:
      answer: { contains: Done }
`;

const lineCount = (file: string) => readFileSync(file, "utf8").trim().split("\n").length;

describe("resume keyed by the case and the fakes it ran on", () => {
  it("re-runs only the trials whose case changed since they were judged, and says so", async () => {
    const { file, dir } = writeEvals(caseOf("a", "Done.") + caseOf("b", "Done."));
    const out = join(dir, "run.ndjson");
    await runEvals({ evals: file, out });
    expect(readResults(out).every((l) => typeof l.caseHash === "string")).toBe(true);
    const again = await runEvals({ evals: file, out });
    expect(again.notes.join("\n")).toContain("resumed: 4 trials");
    expect(again.notes.join("\n")).not.toContain("re-run");
    expect(lineCount(out)).toBe(4);

    // Case a now expects another answer: its stored passes were judged against the old case.
    writeFileSync(file, readFileSync(file, "utf8").replace("answer: Done.\n", "answer: Not yet.\n"));
    const edited = await runEvals({ evals: file, out });
    expect(edited.notes).toContain(`re-run: 2 trials in ${out} judged against another version of their case or fakes`);
    expect(edited.notes).toContain(`resumed: 2 trials already in ${out}`);
    expect(edited.cases.map((c) => `${c.case} ${c.verdict}`)).toEqual(["a fail", "b pass"]);
    expect(lineCount(out)).toBe(6);
  }, 120_000);

  it("re-runs every trial when the fakes changed under the cases, and a stored trial that carries no hash", async () => {
    const { file, dir } = writeEvals(caseOf("a", "Done."));
    const out = join(dir, "run.ndjson");
    await runEvals({ evals: file, out });
    const fakes = join(dir, "fakes.yaml");
    writeFileSync(fakes, readFileSync(fakes, "utf8").replace("served at /crm/mcp.", "served at /crm/mcp (edited)."));
    const changed = await runEvals({ evals: file, out });
    expect(changed.notes).toContain(`re-run: 2 trials in ${out} judged against another version of their case or fakes`);

    const [first] = readResults(out);
    const { caseHash: _, ...unhashed } = first;
    appendFileSync(out, `${JSON.stringify(unhashed)}\n`);
    const legacy = await runEvals({ evals: file, out });
    expect(legacy.notes).toContain(`re-run: 1 trial in ${out} judged against another version of its case or fakes`);
  }, 120_000);
});
