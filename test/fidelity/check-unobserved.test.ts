import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runRecipeChecks } from "../../engine/entries/checks.js";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { startServices } from "../../engine/serve/host/start-services.js";
import { readCalls } from "../../engine/tools/fidelity/calls-file.js";
import { openClient } from "../../engine/tools/testing/connect.js";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";

const MEMORY = join(ROOT, "examples/memory");
const OBSERVED_CHECK = "memory answers every observed tool as the real server did";
const observedResult = (results: Awaited<ReturnType<typeof runRecipeChecks>>) => results.find((r) => r.name === OBSERVED_CHECK)!;

/** A copy of the memory example whose observed.json lacks some tools, and a recording of its session. */
let copy: string;
let recording: string;

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), "eval-simulate-unobserved-"));
  cpSync(MEMORY, copy, { recursive: true });
  const observed = JSON.parse(readFileSync(join(copy, "mcp/memory/observed.json"), "utf8"));
  delete observed.tools.read_graph;
  delete observed.tools.open_nodes;
  writeFileSync(join(copy, "mcp/memory/observed.json"), JSON.stringify(observed));
  recording = join(copy, "responses.jsonl");
  const { fakes, world } = await loadFakes(join(copy, "fakes.yaml"));
  const services = await startServices(fakes, { world, record: recording });
  const client = await openClient(services.url("memory"));
  for (const call of readCalls(join(copy, "tests/replay-calls.yaml")).filter((c) => c.read === undefined))
    await client.callTool({ name: call.tool, arguments: call.args });
  await client.close();
  await services.close();
});

const SLOW = 120_000; // real processes on a shared machine: an upper bound, not a measurement

describe("check tells the truth about observations", { timeout: SLOW }, () => {
  it("reports a fake with tools that have no observation as not checked, naming them, never as a pass", async () => {
    const result = observedResult(await runRecipeChecks({ manifest: join(copy, "fakes.yaml"), record: recording }));
    expect(result).toMatchObject({ ok: true, checked: false });
    expect(result.message).toMatch(/memory's tools read_graph, open_nodes have no observation in .*observed\.json, so they were not checked/);
  });

  it("fails them with requireObserved", async () => {
    const result = observedResult(await runRecipeChecks({ manifest: join(copy, "fakes.yaml"), record: recording, requireObserved: true }));
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/"read_graph" has no observation in .*\(requireObserved\)/);
    expect(result.message).toMatch(/"open_nodes" has no observation/);
  });

  it("holds the text beside structured content to the observed form: compact JSON where the real server indents fails", async () => {
    const fakes = readFileSync(join(copy, "fakes.yaml"), "utf8");
    const compact = join(copy, "compact.yaml");
    writeFileSync(compact, fakes.replace('answer: { text: "$string(entities, true)" }', 'answer: { text: "$string(entities)" }'));
    const result = observedResult(await runRecipeChecks({ manifest: compact, record: await record(compact) }));
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/"create_entities" .*the text beside its structured content is not written as JSON indented by 2, as the real server's was/);
  });

  it("eval-simulate check prints ○ and counts it as not checked, not passed", async () => {
    const run = await runCli(["check", join(copy, "fakes.yaml"), "--record", recording]);
    expect(run.stdout).toMatch(new RegExp(`^○ ${OBSERVED_CHECK} \\(not checked: memory's tools read_graph, open_nodes`, "m"));
    expect(run.stdout).toMatch(/^7 passed, 0 failed, 1 not checked$/m);
    expect(run.code).toBe(0);
    const required = await runCli(["check", join(copy, "fakes.yaml"), "--record", recording, "--require-observed"]);
    expect(required.code).toBe(1);
  });

  it("checkRecipeFakes skips it under node:test with the reason", () => {
    const file = join(copy, "skip.test.mjs");
    const checks = join(ROOT, "dist/engine/entries/checks.js");
    writeFileSync(
      file,
      `import { test } from "node:test";\nimport { checkRecipeFakes } from ${JSON.stringify(checks)};\ncheckRecipeFakes({ test, manifest: ${JSON.stringify(join(copy, "fakes.yaml"))}, record: ${JSON.stringify(recording)} });\n`,
    );
    const run = spawnSync(process.execPath, ["--test", "--test-reporter=tap", file], { encoding: "utf8" });
    expect(run.stdout).toMatch(
      /ok \d+ - memory answers every observed tool as the real server did # SKIP memory's tools read_graph, open_nodes have no observation/,
    );
    expect(run.stdout).toMatch(/# skipped 1/);
  });
});

/** Runs the session on a manifest and returns its recording. */
async function record(manifest: string): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), "eval-simulate-unobserved-")), "responses.jsonl");
  const { fakes, world } = await loadFakes(manifest);
  const services = await startServices(fakes, { world, record: file });
  const client = await openClient(services.url("memory"));
  for (const call of readCalls(join(copy, "tests/replay-calls.yaml")).filter((c) => c.read === undefined))
    await client.callTool({ name: call.tool, arguments: call.args });
  await client.close();
  await services.close();
  return file;
}
