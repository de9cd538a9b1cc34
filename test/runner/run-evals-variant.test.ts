import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readResults } from "../../engine/eval/results/results-file.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { compareRuns } from "../../engine/eval/results/compare.js";
import { runCli } from "../support/cli-process.js";
import { writeEvals } from "../support/evals-files.js";
import { type ScriptedProvider, type ScriptedRequest, startScriptedProvider } from "../support/scripted-provider.js";

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const UMBRELLA = "0080618c-1fdc-54e1-9e26-73c948373f91";
const noteCase = (baseURL: string) => `
  - id: note-on-umbrella
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: Log a kick-off note on Umbrella Health.
    maxSteps: 4
    host: { type: model, model: "openai-compatible:qwen3", baseURL: "${baseURL}" }
    expect:
      calls: [{ tool: crm/create-note, arguments: { parent_record_id: ${UMBRELLA} } }]
`;
const createNote = { name: "create-note", arguments: { parent_object: "companies", parent_record_id: UMBRELLA, title: "Kick-off", content: "Booked." } };
const NOTE_DESCRIPTION = "Add a note to ONE company, person or deal: parent_object and parent_record_id say which.";
const VARIANT = `id: clearer-notes
description: Say what a note is attached to.
tools:
  create-note:
    description: "${NOTE_DESCRIPTION}"
`;

/** Each trial: create the note, then answer. */
const agent = () => startScriptedProvider((_request, index) => (index % 2 === 0 ? { toolCalls: [createNote] } : { text: "Noted." }));
type OfferedTool = { function: { name: string; description?: string; parameters?: unknown } };
const offered = (request: ScriptedRequest, name: string) => (request.body.tools as OfferedTool[]).find((t) => t.function.name === name)!;

describe("eval --variant on full eval cases, against a scripted provider", () => {
  it("offers the model the variant's description for this run only, records the variant on each line, and compare pairs the runs by it", async () => {
    provider = await agent();
    const { file, dir } = writeEvals(noteCase(provider.baseURL));
    const variantFile = join(dir, "clearer-notes.yaml");
    writeFileSync(variantFile, VARIANT);
    const evalsText = readFileSync(join(dir, "evals.yaml"), "utf8");

    const base = await runEvals({ evals: file, out: join(dir, "base.ndjson"), env: {} });
    const baseRequest = provider.requests[0];
    expect(offered(baseRequest, "create-note").function.description).not.toBe(NOTE_DESCRIPTION);
    const candidate = await runEvals({ evals: file, variant: variantFile, out: join(dir, "candidate.ndjson"), env: {} });
    const candidateRequest = provider.requests[2];
    expect(offered(candidateRequest, "create-note").function.description).toBe(NOTE_DESCRIPTION);
    // Only the overridden tool changed; its input schema and every other tool are as served.
    expect(offered(candidateRequest, "create-note").function.parameters).toEqual(offered(baseRequest, "create-note").function.parameters);
    expect(offered(candidateRequest, "list-tasks")).toEqual(offered(baseRequest, "list-tasks"));
    // The fake still answered as captured: the note was created and the case passed both times.
    expect([base.verdict, candidate.verdict]).toEqual(["pass", "pass"]);
    expect(readFileSync(join(dir, "evals.yaml"), "utf8")).toBe(evalsText);

    expect(base.lines[0].variant).toBeUndefined();
    expect(readResults(join(dir, "candidate.ndjson")).map((line) => line.variant)).toEqual(["clearer-notes"]);
    const comparison = compareRuns(readResults(join(dir, "base.ndjson")), readResults(join(dir, "candidate.ndjson")));
    expect([comparison.baseline.label, comparison.candidate.label]).toEqual(["baseline", "clearer-notes"]);
    expect(comparison.passRateDelta).toBe(0);

    // A results file holds one variant's run: resuming the baseline's file with the variant is refused.
    await expect(runEvals({ evals: file, variant: variantFile, out: join(dir, "base.ndjson"), env: {} })).rejects.toThrow(
      /holds a run without a variant: give this run its own --out/,
    );
  }, 60_000);

  it("takes --variant without --selection as a real process, and points at the variant file's own errors", async () => {
    provider = await agent();
    const { file, dir } = writeEvals(noteCase(provider.baseURL));
    const variantFile = join(dir, "clearer-notes.yaml");
    writeFileSync(variantFile, VARIANT);
    const out = join(dir, "run.ndjson");
    const run = await runCli(["eval", file, "--variant", variantFile, "--out", out]);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(offered(provider.requests[0], "create-note").function.description).toBe(NOTE_DESCRIPTION);
    expect(readResults(out).map((line) => [line.variant, line.status])).toEqual([["clearer-notes", "pass"]]);

    writeFileSync(variantFile, VARIANT.replace("create-note:", "create-notes:"));
    const bad = await runCli(["eval", file, "--variant", variantFile, "--out", join(dir, "bad.ndjson")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("clearer-notes.yaml");
    expect(bad.stderr).toMatch(/no served MCP tool is named "create-notes"/);
    expect(bad.stderr).toMatch(/create-note/);
  }, 60_000);
});
