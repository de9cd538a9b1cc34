import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { maskAnswer, parseIgnore } from "../../engine/tools/fidelity/answer-ignore.js";
import { answerDifferences } from "../../engine/tools/fidelity/call-answer.js";
import { readCalls } from "../../engine/tools/fidelity/calls-file.js";
import { replay } from "../../engine/tools/fidelity/replay.js";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { serve } from "../support/services.js";

const MANIFEST = join(ROOT, "test/fixtures/stamped-tasks/fakes.yaml");
const text = (t: string) => ({ result: { content: [{ type: "text", text: t }], isError: false } });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "replay-ignore-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh "real" server for one replay: the same fake at another clock, so only its dates differ. */
async function onReal<T>(use: (url: string) => Promise<T>): Promise<T> {
  const real: Services = await serve(MANIFEST, { clock: "2026-01-15T08:30:00.000Z" });
  try {
    return await use(real.url("tasks"));
  } finally {
    await real.close();
  }
}

describe("replay's matchers for answers that never match byte for byte", () => {
  it("masks JSON paths, shapes and regexes on both sides, counting what it left out", () => {
    const a = text('{"id":"task-7","created_at":"2026-01-15T08:30:00.000Z","log":[{"at":"2026-01-15"},{"at":"x"}]}');
    const b = text('{"id":"task-9","created_at":"2026-06-01T00:00:00Z","log":[{"at":"2026-06-01"},{"at":"x"}]}');
    expect(answerDifferences(a, b)).toEqual(["content[0] (text) differs"]);
    const ignores = ["$.created_at", "$.log[*].at", "/task-[0-9]+/"].map(parseIgnore);
    const [x, y] = [maskAnswer(a, ignores), maskAnswer(b, ignores)];
    expect(answerDifferences(x.answer, y.answer)).toEqual([]);
    expect(x.answer.result?.content[0].text).toBe('{"id":"‹ignored›","created_at":"‹ignored›","log":[{"at":"‹ignored›"},{"at":"‹ignored›"}]}');
    expect(x.ignored).toEqual(["$.created_at", "$.log[*].at ×2", "/task-[0-9]+/"]);
    const uuid = [parseIgnore("uuid")];
    expect(maskAnswer(text("made 123e4567-e89b-12d3-a456-426614174000 at noon"), uuid).answer.result?.content[0].text).toBe("made ‹ignored› at noon");
    // A JSON path no part of the answer reaches leaves its text, formatting and all, as it was.
    expect(maskAnswer(text('{ "a": 1 }'), [parseIgnore("$.b")]).answer.result?.content[0].text).toBe('{ "a": 1 }');
  });

  it("refuses an ignore it cannot read, and a pattern RE2 cannot run", () => {
    expect(() => parseIgnore("created_at")).toThrow(
      /cannot ignore "created_at": give a JSON path \(\$\.field, \$\.list\[\*\]\.id\), a \/regular expression\/, or a shape \(uuid, iso-date\)/,
    );
    expect(() => parseIgnore("/(a)\\1/")).toThrow(/patterns run on RE2/);
  });

  it("passes a replay whose answers differ only where --ignore or the calls file says, and shows where", async () => {
    const calls = join(dir, "calls.yaml");
    writeFileSync(calls, `- { tool: add-task, args: { title: One } }\n- { tool: add-task, args: { title: Two }, ignore: ["$.log[*].at"] }\n`);
    const clock = "2026-06-01T00:00:00.000Z";
    const plain = await onReal((url) => replay({ manifest: MANIFEST, calls: readCalls(calls), target: { url }, clock }));
    expect(plain.calls.map((c) => c.differences)).toEqual([["content[0] (text) differs"], ["content[0] (text) differs"]]);
    const masked = await onReal((url) => replay({ manifest: MANIFEST, calls: readCalls(calls), target: { url }, clock, ignore: ["iso-date"] }));
    expect(masked.calls.map((c) => [c.differences, c.ignored])).toEqual([
      [[], ["iso-date ×2"]],
      [[], ["$.log[*].at", "iso-date"]],
    ]);
    const cli = await onReal((url) => runCli(["replay", calls, MANIFEST, "--mcp-url", url, "--clock", clock, "--ignore", "$.created_at"]));
    expect(cli.code).toBe(1);
    expect(cli.stdout).toMatch(
      /^✗ add-task \{"title":"One"\} \(.*#1\): content\[0\] \(text\) differs \(ignored: \$\.created_at\)\n {2}real: ".*‹ignored›.*"\n/m,
    );
    const both = await onReal((url) => runCli(["replay", calls, MANIFEST, "--mcp-url", url, "--clock", clock, "--ignore", "iso-date"]));
    expect(both.stdout).toBe(
      "✓ tasks: 2 calls, every answer the same as the real server's, with 4 parts ignored (iso-date ×3, $.log[*].at) and marked ‹ignored›\n",
    );
    expect(both.code).toBe(0);
  });
});
