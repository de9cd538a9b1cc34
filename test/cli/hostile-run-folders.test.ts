import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labelId } from "../../engine/author/world/index.js";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { recordRun } from "../support/recorded-run.js";

/**
 * A run folder is written by the agent's harness as much as by serve: `verify` in CI must judge
 * it, or refuse it with a message naming the file (exit 2), whatever its files are or lead to.
 * Never the environment printed, never a hang, never a stack trace.
 */
const root = mkdtempSync(join(tmpdir(), "eval-simulate-hostile-runs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SECRET = "s3cr3t-token-71c0aa";
const EVALS = "examples/crm/evals.yaml";
/** A stack trace line (diagnostics say "  at <path>", two spaces). */
const STACK = /^ {4}at /m;
let recorded: string;
let copies = 0;

/** A copy of the recorded run, changed by `edit`. */
function runFolder(edit: (dir: string) => void): string {
  const dir = join(root, `run-${++copies}`);
  cpSync(recorded, dir, { recursive: true });
  rmSync(join(dir, "answer.txt"), { force: true });
  edit(dir);
  return dir;
}

async function verify(dir: string) {
  const result = await runCli(["verify", EVALS, "--case", "close-acme-renewal", "--run", dir], { env: { CI_DEPLOY_TOKEN: SECRET } });
  const out = result.stdout + result.stderr;
  expect(out).not.toContain(SECRET);
  expect(out).not.toMatch(STACK);
  return { ...result, out };
}

describe("verify on a hostile run folder", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    recorded = (
      await recordRun(join(ROOT, "examples/crm/fakes.yaml"), [
        { tool: "crm/update-record", args: { object: "deals", record_id: labelId("deal-acme"), values: { stage: "won" } } },
        { tool: "crm/complete-task", args: { task_id: labelId("task-acme-order-form") } },
      ])
    ).dir;
  }, 180_000);

  it("refuses an answer.txt or transcript.json linked to /proc/self/environ, naming the file", async () => {
    const answer = await verify(runFolder((dir) => symlinkSync("/proc/self/environ", join(dir, "answer.txt"))));
    expect(answer.stderr).toMatch(/answer\.txt .*is a system pseudo-file/);
    expect(answer.code).toBe(2);
    const transcript = await verify(runFolder((dir) => symlinkSync("/proc/self/environ", join(dir, "transcript.json"))));
    expect(transcript.stderr).toMatch(/transcript\.json .*is a system pseudo-file/);
    expect(transcript.code).toBe(2);
  });

  it("refuses an answer.txt that is a named pipe, and a record.jsonl linked to /dev/zero, without hanging or reading them", async () => {
    const fifo = await verify(runFolder((dir) => execFileSync("mkfifo", [join(dir, "answer.txt")])));
    expect(fifo.stderr).toMatch(/answer\.txt is a named pipe \(FIFO\), not a regular file/);
    expect(fifo.code).toBe(2);
    const zero = await verify(
      runFolder((dir) => {
        rmSync(join(dir, "record.jsonl"));
        symlinkSync("/dev/zero", join(dir, "record.jsonl"));
      }),
    );
    expect(zero.stderr).toMatch(/record\.jsonl is a device, not a regular file/);
    expect(zero.code).toBe(2);
  });

  it("refuses a 300 MB answer as larger than an answer may be, without reading it", async () => {
    const { code, stderr } = await verify(
      runFolder((dir) => {
        writeFileSync(join(dir, "answer.txt"), "");
        truncateSync(join(dir, "answer.txt"), 300 * 1024 * 1024);
      }),
    );
    expect(stderr).toMatch(/answer\.txt is larger than 1 MiB/);
    expect(code).toBe(2);
  });

  it("refuses a record line past the line cap, naming the file and line", async () => {
    const { code, stderr } = await verify(
      runFolder((dir) => {
        writeFileSync(join(dir, "record.jsonl"), '{"server":"crm","tool":"list-tasks","args":{}}\n');
        truncateSync(join(dir, "record.jsonl"), 20 * 1024 * 1024);
      }),
    );
    expect(stderr).toMatch(/record\.jsonl:2: the line is longer than 16 MiB/);
    expect(code).toBe(2);
  });

  it("refuses a state.json of null and one with a __proto__ key, naming the file and line", async () => {
    const empty = await verify(runFolder((dir) => writeFileSync(join(dir, "state.json"), "null\n")));
    expect(empty.stderr).toMatch(/state\.json:1: the final state is not an object of fakes by id \(it is null\)/);
    expect(empty.code).toBe(2);
    const proto = await verify(runFolder((dir) => writeFileSync(join(dir, "state.json"), '{\n  "crm": {},\n  "__proto__": { "polluted": true }\n}\n')));
    expect(proto.stderr).toMatch(/state\.json:3: "__proto__" is not a fake's id/);
    expect(proto.code).toBe(2);
    const entity = await verify(runFolder((dir) => writeFileSync(join(dir, "initial-state.json"), '{ "crm": { "__proto__": [] } }')));
    expect(entity.stderr).toMatch(/initial-state\.json:1: "crm\.__proto__" is not an entity's name/);
    expect(entity.code).toBe(2);
  });

  it("says where a state file stops being JSON without quoting it", async () => {
    const { code, stderr } = await verify(
      runFolder((dir) => writeFileSync(join(dir, "initial-state.json"), `{\n  "crm": {\n    "deals": [${JSON.stringify(SECRET)} oops]\n  }\n}\n`)),
    );
    expect(stderr).toMatch(/initial-state\.json:3:\d+: not JSON/);
    expect(code).toBe(2);
  });
});
