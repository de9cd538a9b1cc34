import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/examples.js";

/**
 * The watchdog terminates JavaScript on a process's main thread, so it is tried in a process of
 * its own: a JSONata handler calls a bound function that never returns, standing in for the next
 * jsonata built-in found to loop in one synchronous step.
 */
const SCRIPT = `
import { compileJsonataHandler, runJsonataHandler } from "${ROOT}dist/engine/author/handlers/jsonata-index.js";
const input = (labelId) => ({ args: {}, state: {}, world: {}, now: "2026-01-01T00:00:00Z", scenario: "s", labelId, log() {} });
const started = Date.now();
let stuck;
try {
  await runJsonataHandler(compileJsonataHandler('$labelId("x")').handler, input(() => { for (;;) {} }), { timeoutMs: 60000 });
} catch (error) {
  stuck = { code: error.code, message: error.message, ms: Date.now() - started };
}
let backtracking;
try {
  const regex = compileJsonataHandler('$match($args.s, $eval("/(a+)+$/"))').handler;
  await runJsonataHandler(regex, { ...input((l) => l), args: { s: "a".repeat(40) + "!" } }, { timeoutMs: 60000 });
} catch (error) {
  backtracking = { code: error.code, message: error.message };
}
const next = await runJsonataHandler(compileJsonataHandler("$count([1..10])").handler, input((l) => l));
const timers = await new Promise((resolve) => setTimeout(() => resolve("ran"), 10));
console.log(JSON.stringify({ stuck, backtracking, next: next.value, timers }));
`;

function runScript(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // From a file: a script given with -e is still "running" while it awaits, and V8 ends it whole.
    const file = join(mkdtempSync(join(tmpdir(), "eval-simulate-watchdog-")), "stuck.mjs");
    writeFileSync(file, SCRIPT);
    const child = spawn(process.execPath, [file], { cwd: ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the JSONata watchdog", () => {
  it("stops an evaluation that blocks the event loop in one step (a stuck function, a backtracking regex), and the process carries on", async () => {
    const { code, stdout, stderr } = await runScript();
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.stuck).toMatchObject({ code: "E_HANDLER_TIMEOUT", message: expect.stringContaining("stopped by the watchdog; nothing was changed") });
    // Well before the handler's own 60 s limit, which a blocked event loop could never enforce.
    expect(result.stuck.ms).toBeLessThan(20_000);
    // A regex built at run time, which backtracks for minutes inside one match: stopped the same way.
    expect(result.backtracking).toMatchObject({ code: "E_HANDLER_TIMEOUT", message: expect.stringContaining("stopped by the watchdog") });
    expect(result).toMatchObject({ next: 10, timers: "ran" });
  });
});
