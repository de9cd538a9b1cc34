import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import check from "../../cli/check.js";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { CLOCK, MANIFEST, recordContractCalls } from "../fixtures/checks-valid/record.js";
import { runInProcess } from "../support/run-command.js";

const OBSERVED = new URL("../fixtures/checks-observed/fakes.yaml", import.meta.url).pathname;
let record: string;

const run = runInProcess;

beforeAll(async () => {
  record = join(mkdtempSync(join(tmpdir(), "eval-simulate-check-")), "responses.jsonl");
  const { fakes, world } = await loadFakes(MANIFEST, { clock: CLOCK });
  await recordContractCalls(fakes, world, record);
});

describe("eval-simulate check", () => {
  it("prints one line per check and exits 0 when all pass", async () => {
    const { stdout, code } = await run(check, [MANIFEST, "--record", record, "--clock", CLOCK]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^✓ notes serves the Recipe's allowed tools from its contract, in captured order\n/);
    expect(stdout).toMatch(/✓ an unknown scenario is refused\n9 passed, 0 failed\n$/);
  });

  it("reads a YAML or JSON calls list as --record, in every format replay reads", async () => {
    const calls = readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { server?: string; tool?: string; args?: unknown })
      .filter((call) => call.tool !== undefined);
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-check-"));
    const yaml = join(dir, "calls.yaml");
    writeFileSync(
      yaml,
      `# the contract tests' calls, as a replay list\n${calls.map((c) => `- ${JSON.stringify({ server: c.server, tool: c.tool, args: c.args ?? {} })}`).join("\n")}\n`,
    );
    const json = join(dir, "calls.json");
    writeFileSync(json, JSON.stringify({ calls: calls.map((c) => ({ tool: c.tool, args: c.args ?? {} })) }));
    for (const file of [yaml, json]) {
      const { stdout, code } = await run(check, [MANIFEST, "--record", file, "--clock", CLOCK, "--format", "json"]);
      expect(code).toBe(0);
      const results = JSON.parse(stdout) as Array<{ name: string; ok: boolean; message: string }>;
      expect(results.every((r) => r.ok)).toBe(true);
    }
    // Observations are held to answers, which a calls list lacks: said, not failed.
    const observed = await run(check, [OBSERVED, "--record", yaml, "--format", "json"]);
    const held = (JSON.parse(observed.stdout) as Array<{ name: string; ok: boolean; checked: boolean; message: string }>).find((r) =>
      r.name.includes("observed"),
    );
    expect(held).toMatchObject({ ok: true, checked: false });
    expect(held?.message).toContain("is a calls list without answers");
    rmSync(dir, { recursive: true, force: true });
  });

  it("exits 1 and prints each failure's message with what to fix", async () => {
    const { stdout, code } = await run(check, [OBSERVED, "--record", record]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/✗ notes answers every observed tool as the real server did\n {4}\[eval-simulate\] notes does not answer every observed tool/);
    expect(stdout).toMatch(/ {4}To fix: make the tool's answer read like the real server's/);
    expect(stdout).toMatch(/8 passed, 1 failed\n$/);
  });

  it("prints JSON: an array of { name, ok, message }", async () => {
    const { stdout, code } = await run(check, [OBSERVED, "--format", "json", "--record", record]);
    expect(code).toBe(1);
    const results = JSON.parse(stdout) as Array<{ name: string; ok: boolean; message: string }>;
    expect(results).toHaveLength(9);
    expect(results.filter((r) => !r.ok).map((r) => r.name)).toEqual(["notes answers every observed tool as the real server did"]);
    expect(Object.keys(results[0])).toEqual(["name", "ok", "checked", "message"]);
  });

  it("annotates each failure for GitHub Actions", async () => {
    const { stdout } = await run(check, [OBSERVED, "--format", "github", "--record", record]);
    expect(stdout).toMatch(
      /^::error file=.*checks-observed\/fakes\.yaml,title=notes answers every observed tool as the real server did::\[eval-simulate\] notes does not answer.*%0A/m,
    );
    expect(stdout.match(/^::error/gm)).toHaveLength(1);
  });

  it("exits 2 for an unreadable manifest, an unknown option, a missing record or a bad clock", async () => {
    const missing = await run(check, ["no/such/fakes.yaml"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/E_IO.*\n[\s\S]*no\/such\/fakes\.yaml is not valid; fix it first/);
    expect((await run(check, [MANIFEST, "--formt", "json"])).code).toBe(2);
    expect((await run(check, [MANIFEST, "--record", "no/such.jsonl"])).stderr).toMatch(/--record: no file no\/such\.jsonl/);
    expect((await run(check, [MANIFEST, "--clock", "someday"])).code).toBe(2);
  });
});
