import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readRun } from "../../engine/judge/evals/run.js";
import type { TrialLine } from "../../engine/eval/results/results-file.js";
import { badCalls, callKey } from "../../engine/judge/selection/bad-calls.js";
import { compareRuns } from "../../engine/eval/results/compare.js";
import type { RecordedCall } from "../../engine/core/record/types.js";
import { ROOT } from "../support/examples.js";
import { recordRun } from "../support/recorded-run.js";

const MANIFEST = join(ROOT, "examples/workspace/fakes.yaml");

const trial = (id: string, record: readonly RecordedCall[], status: TrialLine["status"] = "pass"): TrialLine => ({
  case: id,
  iteration: 0,
  model: "m",
  status,
  assertions: [],
  calls: record.length,
  requests: 1,
  usage: { inputTokens: 0, outputTokens: 0 },
  costUsd: 0,
  durationMs: 0,
  startedAt: "",
  session: { id: "s", record: [...record] },
});

describe("bad calls per trial, from the record of a real run", () => {
  it("counts a repeat after a definitive error, a call the input schema refused, and insistence on one tool and key", async () => {
    const { dir } = await recordRun(MANIFEST, [
      { tool: "files/read_text_file", args: { path: "missing.md" } },
      { tool: "files/read_text_file", args: { path: "missing.md" } },
      { tool: "files/read_text_file", args: { path: "missing.md", head: 2 } },
      { tool: "files/edit_file", args: { path: "README.md" } },
      { tool: "memory/open_nodes", args: { names: ["Ada_Lovelace"] } },
      { tool: "memory/open_nodes", args: { names: ["Ada_Lovelace"] } },
      { tool: "memory/open_node", args: { names: ["Ada_Lovelace"] } },
    ]);
    const run = readRun(dir);
    expect(run.calls).toHaveLength(7);
    const report = badCalls(run.calls);
    expect(report).toEqual({
      repeatedAfterError: 1,
      schemaRefused: 1,
      insistence: 1,
      total: 3,
      details: [
        "#2 files/read_text_file repeats #1, which failed definitively",
        "#4 files/edit_file was refused by its input schema",
        '#1, #2, #3: 3 failing calls of files/read_text_file {"path":"missing.md"}',
      ],
    });

    // compare reports them per run and per case.
    const clean = run.calls.filter((_, i) => i === 4);
    const c = compareRuns([trial("read-docs", run.calls, "fail")], [trial("read-docs", clean)]);
    expect(c.baseline.badCalls).toEqual({ repeatedAfterError: 1, schemaRefused: 1, insistence: 1, total: 3 });
    expect(c.candidate.badCalls).toEqual({ repeatedAfterError: 0, schemaRefused: 0, insistence: 0, total: 0 });
    expect(c.cases).toEqual([
      { case: "read-docs", baseline: { passes: 0, of: 1, badCalls: 3 }, candidate: { passes: 1, of: 1, badCalls: 0 }, change: "improved" },
    ]);
  });

  it("does not count retries of transient API failures, nor repeats of calls that succeeded", () => {
    const api = (status: number, issue = 7): RecordedCall => ({
      api: "github",
      operation: "issues/get",
      request: { params: { owner: "o", repo: "r", issue_number: issue } },
      response: { status, body: {} },
    });
    // Three failing on one key is insistence, but retrying a 503 is no repeat after a definitive error.
    expect(badCalls([api(503), api(503), api(503)])).toMatchObject({ repeatedAfterError: 0, insistence: 1, total: 1 });
    // A group with a success in it is not insistence.
    expect(badCalls([api(503), api(503), api(503), api(200)]).total).toBe(0);
    expect(badCalls([api(404), api(404)])).toMatchObject({ repeatedAfterError: 1, insistence: 0 });
    expect(badCalls([api(200), api(200), api(200)]).total).toBe(0);
    expect(
      badCalls([{ api: "github", operation: "issues/create", request: { body: {} }, response: { status: 400, body: { error: "bad_request" } } }]).schemaRefused,
    ).toBe(1);
    expect(callKey({ path: "/a", head: 2 })).toBe('{"path":"/a"}');
    expect(callKey({ query: "x" })).toBe('{"query":"x"}');
  });
});
