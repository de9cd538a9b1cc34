import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readResults } from "../../engine/eval/results/results-file.js";
import { runCli } from "../support/cli-process.js";
import { writeEvals } from "../support/evals-files.js";

const MiB = 1024 * 1024;
const UMBRELLA = "0080618c-1fdc-54e1-9e26-73c948373f91";

/**
 * A trial's line is bounded as the command host bounds an agent's output: an answer of at most
 * 1 MiB (judged as cut) and a stored record of at most 1 MiB, whatever the agent sent, each cut
 * said on the line. Run as a real `eval` process.
 */
describe("a trial's line in the results file", { timeout: 120_000 }, () => {
  it("cuts a 3 MiB answer and a 2.7 MB record to 1 MiB each, saying so, and keeps every call's name", async () => {
    const note = (n: number) =>
      JSON.stringify({
        tool: "crm/create-note",
        arguments: { parent_object: "companies", parent_record_id: UMBRELLA, title: `Note ${n}`, content: "y".repeat(900_000) },
      });
    const answer = `Done. ${"z".repeat(3 * MiB)}`;
    const { file, dir } = writeEvals(`
  - id: big
    host: { type: script }
    script:
      calls: [${[1, 2, 3].map(note).join(", ")}]
      answer: ${JSON.stringify(answer)}
    expect: { answer: { contains: "Done." } }
`);
    const out = join(dir, "out.ndjson");
    const { code } = await runCli(["eval", file, "--out", out]);
    expect(code).toBe(0);
    const [line] = readResults(out);
    expect(Buffer.byteLength(line.answer!)).toBe(MiB);
    expect(line.answer!.startsWith("Done. zzz")).toBe(true);
    expect(line.answerBytes).toBe(Buffer.byteLength(answer));
    expect(Buffer.byteLength(JSON.stringify(line.session!.record))).toBeLessThanOrEqual(MiB);
    expect(line.session!.record.map((call) => (call as { tool: string }).tool)).toEqual(["create-note", "create-note", "create-note"]);
    expect(line.session!.truncated).toMatchObject({ calls: 3 });
    // Bad calls are counted on the whole record, before it is cut.
    expect(line.badCalls?.schemaRefused).toBe(3);
    expect(readFileSync(out, "utf8").length).toBeLessThan(3 * MiB);
  });
});
