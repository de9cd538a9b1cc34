import { describe, expect, it } from "vitest";
import { readResults } from "../../engine/eval/results/results-file.js";
import { renderSummaryMarkdown, renderSummaryText } from "../../engine/eval/results/report-text.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { summarize } from "../../engine/eval/results/run-summary.js";
import { writeEvals } from "../support/evals-files.js";

const MISSING = "00000000-0000-4000-8000-000000000000";
const UMBRELLA = "0080618c-1fdc-54e1-9e26-73c948373f91";
const note = (parent: string) =>
  `{ tool: crm/create-note, arguments: { parent_object: companies, parent_record_id: ${parent}, title: Kick-off, content: Booked. } }`;
const CASES = `
  - id: repeats-a-refused-note
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    iterations: 2
    accuracyThreshold: 1
    host: { type: script }
    script:
      calls:
        - ${note(MISSING)}
        - ${note(MISSING)}
        - ${note(UMBRELLA)}
      answer: Noted.
    expect:
      calls: [{ tool: create-note, arguments: { parent_record_id: ${UMBRELLA} } }]
  - id: notes-once
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    host: { type: script }
    script:
      calls: [${note(UMBRELLA)}]
      answer: Noted.
    expect:
      calls: [{ tool: create-note }]
`;

describe("bad calls per eval trial", () => {
  it("counts a call repeated after a definitive error on each trial line and per case in every report", async () => {
    const { file, dir } = writeEvals(CASES);
    const out = `${dir}/results.ndjson`;
    const result = await runEvals({ evals: file, dry: true, out });
    const repeats = result.lines.filter((line) => line.case === "repeats-a-refused-note");
    expect(repeats).toHaveLength(2);
    for (const line of repeats) {
      expect(line.session?.record).toHaveLength(3);
      expect(line.badCalls).toEqual({ repeatedAfterError: 1, schemaRefused: 0, insistence: 0, total: 1 });
    }
    expect(result.lines.find((line) => line.case === "notes-once")?.badCalls).toEqual({ repeatedAfterError: 0, schemaRefused: 0, insistence: 0, total: 0 });
    expect(result.cases.map((c) => [c.case, c.badCalls])).toEqual([
      ["repeats-a-refused-note", 2],
      ["notes-once", 0],
    ]);

    const text = renderSummaryText(result);
    expect(text).toContain("6 tool calls (2 bad)");
    expect(text).toMatch(/notes-once[^\n]*\n[^\n]*\n\s+1 tool calls, tokens/);
    expect(renderSummaryMarkdown(result)).toContain("| 6 (2 bad) |");
    // The same counts come back from the results file alone (eval-simulate report).
    // Trials finish (and are appended) in any order, so the cases are compared by name.
    expect(Object.fromEntries(summarize(readResults(out)).cases.map((c) => [c.case, c.badCalls]))).toEqual({ "repeats-a-refused-note": 2, "notes-once": 0 });
  }, 60_000);
});
