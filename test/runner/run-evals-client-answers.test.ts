/**
 * A case's `client:` answers the fakes' questions for the script host (and so `--dry`): the
 * elicitation's answer reaches the handler, which acts on it, and the trial's record keeps the
 * exchange. Past the scripted answers the client declines.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { copyRecipe } from "../support/evals-files.js";

const EVALS = `version: 1
fakes: fakes.yaml
cases:
  - id: answers-the-form
    host: { type: script }
    client:
      elicitation: [{ action: accept, content: { username: ada, email: ada@example.com } }]
      sampling: [A short reply.]
    script:
      calls:
        - { tool: conformance/test_elicitation, arguments: { message: Who are you? } }
        - { tool: conformance/test_elicitation, arguments: { message: And again? } }
        - { tool: conformance/test_sampling, arguments: { prompt: Say hi } }
      answer: Done.
    expect:
      calls: [{ tool: test_elicitation, count: { exact: 2 } }]
`;

describe("the case's client answers", () => {
  it("answers elicitation and sampling in turn, declining past the last, and the record keeps each exchange", async () => {
    const dir = copyRecipe("conformance");
    const file = join(dir, "evals.yaml");
    writeFileSync(file, EVALS);
    const result = await runEvals({ evals: file });
    expect(result.failed).toBe(0);
    const record = result.lines[0].session!.record as Array<{ tool: string; result: { content: Array<{ text: string }> }; exchanges?: unknown[] }>;
    expect(record.map((line) => line.result.content[0].text)).toEqual([
      'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
      "User response: action=decline, content={}",
      "LLM response: A short reply.",
    ]);
    expect(record[0].exchanges).toMatchObject([{ method: "elicitation/create", params: { message: "Who are you?" }, answer: { action: "accept" } }]);
    expect(record[2].exchanges).toMatchObject([{ method: "sampling/createMessage", answer: { content: { text: "A short reply." } } }]);
  }, 120_000);
});
