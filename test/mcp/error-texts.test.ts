import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadManifest } from "../../engine/author/manifest/index.js";
import { ROOT } from "../support/examples.js";
import { connect, serve, textOf } from "../support/services.js";
import { recordRun } from "../support/recorded-run.js";
import { readRun } from "../../engine/judge/evals/run.js";
import { badCalls } from "../../engine/judge/selection/bad-calls.js";

const TASKS = readFileSync(join(ROOT, "test/fixtures/stamped-tasks/fakes.yaml"), "utf8");
const dir = mkdtempSync(join(tmpdir(), "error-texts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The stamped-tasks fixture with `errors:` added under its server. */
function withErrors(errors: string): string {
  const file = join(dir, `fakes-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, TASKS.replace("  tasks:\n    captured:", `  tasks:\n    errors:\n${errors}    captured:`));
  return file;
}

async function answers(manifest: string): Promise<{ invalid: unknown; unknown: unknown }> {
  const services = await serve(manifest);
  const client = await connect(services.url("tasks"));
  try {
    const invalid = await client.callTool({ name: "add-task", arguments: { title: 7 } });
    const unknown = await client.callTool({ name: "forget-everything", arguments: {} }).catch((error: Error) => ({ refused: error.message }));
    return {
      invalid: { isError: invalid.isError, text: textOf(invalid) },
      unknown: "refused" in unknown ? unknown : { isError: unknown.isError, text: textOf(unknown) },
    };
  } finally {
    await client.close();
    await services.close();
  }
}

describe("error texts a fake declares, worded as its real server words them", { timeout: 60_000 }, () => {
  it("answers today's texts when the fake declares none", async () => {
    const { invalid, unknown } = await answers(join(ROOT, "test/fixtures/stamped-tasks/fakes.yaml"));
    expect(invalid).toEqual({ isError: true, text: "Input validation error: Invalid arguments for tool add-task: data/title must be string" });
    expect(unknown).toMatchObject({ refused: expect.stringContaining("Tool forget-everything not found") });
  });

  it("fills the declared templates with the tool, the failing path and the message", async () => {
    const manifest = withErrors(
      '      invalidArguments: "MCP error -32602: {{tool}}: [{{path}}] {{issue}} ({{message}})"\n      unknownTool: "Error: Unknown tool: {{tool}}"\n',
    );
    const { invalid, unknown } = await answers(manifest);
    expect(invalid).toEqual({ isError: true, text: "MCP error -32602: add-task: [title] must be string (data/title must be string)" });
    expect(unknown).toEqual({ isError: true, text: "Error: Unknown tool: forget-everything" });
  });

  it("still counts a call refused by its input schema as a bad call when the fake words the refusal its own way", async () => {
    const manifest = withErrors('      invalidArguments: "MCP error -32602: {{tool}}: {{issue}}"\n');
    const { dir } = await recordRun(manifest, [{ tool: "tasks/add-task", args: { title: 7 } }], { serve: "in-process" });
    try {
      const run = readRun(dir);
      expect(run.calls[0]).toMatchObject({ refused: "arguments" });
      expect(badCalls(run.calls)).toMatchObject({ schemaRefused: 1, total: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses at validate a placeholder its error does not fill, with a did-you-mean", async () => {
    const manifest = withErrors('      unknownTool: "Error: {{tol}} is unknown"\n');
    await expect(loadManifest(manifest)).rejects.toThrow(/fakes-.*\.yaml:8:20 E_SCHEMA \{\{tol\}\} is not filled in for unknownTool\. Did you mean "tool"\?/);
  });
});
