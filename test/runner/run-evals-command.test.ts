import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../engine/eval/hosts/command-host.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { writeEvals } from "../support/evals-files.js";
import { ROOT } from "../support/examples.js";

const AGENT = `${ROOT}test/fixtures/agent-cli/scripted-agent.mjs`;
const noteCase = (mode: string, extra = "", iterations = 2) => `
  - id: note-by-${mode}
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: Log a kick-off note on Umbrella Health.
    iterations: ${iterations}
    accuracyThreshold: 1
    host: { type: command, command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(AGENT)}, --mcp-config, "{{mcpConfig}}", --prompt, "{{prompt}}", --mode, ${mode}]${extra} }
    expect:
      calls:
        - { tool: crm/search-records, arguments: { query: { $pattern: umbrella, $flags: i } } }
        - { tool: crm/create-note, arguments: { title: Kick-off } }
      order: strict
      state: { changed: [crm.notes], only: true }
      answer: { pattern: "^Kick-off noted" }
`;

describe("eval with an agent CLI as the host", () => {
  it("gives the command the session's MCP servers as a config file and the prompt, and judges what it did", async () => {
    const { file } = writeEvals(noteCase("note"));
    const result = await runEvals({ evals: file, concurrency: 2 });
    expect(result.cases[0]).toMatchObject({ model: "command:node", passed: 2, verdict: "pass", toolCalls: 4 });
    expect(result.lines.map((l) => l.answer)).toEqual(["Kick-off noted.", "Kick-off noted."]);
    // Each trial ran in its own session, and the agent saw that session's id.
    const notes = result.lines.map((l) => (l.session!.record[1] as { args: { content: string } }).args.content);
    expect(notes.sort()).toEqual(result.lines.map((l) => `Session ${l.session!.id}`).sort());
  }, 60_000);

  it("reads the final message from JSON output when the case says outputFormat: json", async () => {
    const { file } = writeEvals(noteCase("json", ", outputFormat: stream-json", 1));
    const result = await runEvals({ evals: file });
    expect(result.lines[0].answer).toBe("Kick-off noted (json).");
    expect(result.failed).toBe(0);
  }, 60_000);

  it("stops a command that outlives timeoutMs and fails its trial, judged on what it did", async () => {
    const { file } = writeEvals(noteCase("hang", ", timeoutMs: 8000", 1));
    const result = await runEvals({ evals: file });
    expect(result.cases[0]).toMatchObject({ failed: 1, verdict: "fail" });
    expect(result.lines[0].reason).toContain("did not finish within 8000 ms");
    expect(result.lines[0].calls).toBe(2);
  }, 60_000);

  it("counts a command that exits non-zero as not run (PRELIMINARY, exit 2), with its stderr", async () => {
    const { file } = writeEvals(noteCase("crash"));
    const result = await runEvals({ evals: file });
    expect(result.cases[0]).toMatchObject({ notRun: 2, failed: 0, verdict: "preliminary" });
    expect(result.cases[0].reasons[0]).toContain("exited 3: agent: the model provider answered 500");
    expect(result.exitCode).toBe(2);
  }, 60_000);

  it("hands {{prompt:sh}} to sh -c as one quoted word: the prompt arrives verbatim and nothing in it runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-injection-"));
    const prompt = `It's done'; touch ${dir}/quote; ' $(touch ${dir}/subst) \`touch ${dir}/tick\` "$HOME" \\ ''\nnext line`;
    const { file } = writeEvals(`
  - id: quoted-prompt
    scenario: quiet
    prompt: ${JSON.stringify(prompt)}
    host: { type: command, command: [sh, -c, "printf '%s' {{prompt:sh}}"], outputFormat: all }
    expect: { calls: [] }
`);
    const result = await runEvals({ evals: file });
    expect(result.lines[0].answer).toBe(prompt);
    expect(["quote", "subst", "tick"].filter((name) => existsSync(join(dir, name)))).toEqual([]);
  }, 60_000);

  it("reads the last line, all of stdout, a JSON result or a JSON stream", () => {
    expect(readAnswer("step 1\nDone.\n\n")).toBe("Done.");
    expect(readAnswer(" all \n", "all")).toBe("all");
    expect(readAnswer('{"type":"result","result":"R"}', "json")).toBe("R");
    expect(readAnswer('[{"role":"assistant","content":"M"}]', "json")).toBe("M");
    expect(readAnswer('{"type":"assistant"}\nnoise\n{"answer":"A"}\n', "stream-json")).toBe("A");
  });
});
