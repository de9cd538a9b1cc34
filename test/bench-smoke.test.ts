import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/examples.js";

/** Runs a benchmark once with tiny counts, so the scripts cannot rot; no timing is asserted. */
function runBench(script: string, env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, ["--import", "jiti/register", `${ROOT}bench/${script}`], {
    cwd: ROOT,
    env: { ...process.env, BENCH_CALLS: "10", BENCH_ROUNDS: "1", BENCH_RUNS: "1", BENCH_ITEMS: "1000", BENCH_SESSIONS: "50", ...env },
    encoding: "utf8",
    timeout: 170_000,
  });
}

describe("the benchmarks still run", () => {
  it("measures MCP throughput against the SDK and the echo floor", () => {
    expect(runBench("mcp-throughput.ts")).toMatch(/engine, JSONata handler[\s\S]*SDK by hand[\s\S]*bare node:http echo[\s\S]*Server CPU per call/);
  }, 120_000);

  it("measures a call's CPU in-process, JSONata against TypeScript handlers", () => {
    expect(runBench("mcp-call-cpu.ts")).toMatch(/jsonata[\s\S]*typescript[\s\S]*TypeScript \/ JSONata CPU per call: sequential [\d.]+×/);
  }, 120_000);

  it("measures a call against the size of the state", () => {
    expect(runBench("state-size.ts")).toMatch(/large \/ small: read [\d.]+×/);
  }, 120_000);

  it("measures a write with and without --state-file on a small and a large world", () => {
    expect(runBench("state-file.ts")).toMatch(/1,000 records\s+yes\s+\d+[\s\S]*[\d.]+×/);
  }, 120_000);

  it("measures sessions against a process start, per session in memory, and in calls/s", () => {
    expect(runBench("sessions.ts")).toMatch(/POST \+ DELETE \/sessions[\s\S]*RSS KB \/ session[\s\S]*100 sessions × 8 clients/);
  }, 120_000);

  it("measures start-up against node -e", () => {
    expect(runBench("startup.ts")).toMatch(/validate examples\/crm[\s\S]*eval --dry examples\/crm[\s\S]*serve 20 × 50 → \/health/);
  }, 120_000);

  it("measures a trial against the size of its world", () => {
    expect(runBench("world-scale.ts", { BENCH_ONLY: "10 records", BENCH_TASKS: "2" })).toMatch(/scale: 10 records[\s\S]*benchmark shape: 10 records/);
  }, 120_000);

  it("measures judging a recorded run against every assertion kind", () => {
    expect(runBench("judge.ts")).toMatch(/judgeRun \(every kind\)\s+[\d.]+/);
  }, 120_000);

  it("measures MCP throughput with tracing on against off", () => {
    expect(runBench("tracing.ts")).toMatch(/tracing off[\s\S]*tracing on, http\/protobuf[\s\S]*tracing on, http\/json[\s\S]*loading the OpenTelemetry SDK/);
  }, 120_000);

  it("measures trials per second in worker processes and against a slow provider", () => {
    expect(runBench("workers.ts", { BENCH_CALLS: "1", BENCH_TRIALS: "8" })).toMatch(
      /crm dry run[\s\S]*4 workers[\s\S]*answering each request after 200 ms[\s\S]*64\s+2 workers/,
    );
  }, 180_000);

  it("measures the conversation loop's own cost per turn with the script host and a scripted user", () => {
    expect(runBench("conversation.ts", { BENCH_TURNS: "2" })).toMatch(/turns-with-calls[\s\S]*runner's own cost per turn beyond the calls/);
  }, 120_000);

  it("measures the eval runner's own cost per trial with the script host", () => {
    expect(runBench("runner.ts")).toMatch(/wall ms \/ trial[\s\S]*runner's own cost per trial/);
  }, 120_000);

  it("measures resuming a run of stored trials", () => {
    expect(runBench("resume.ts", { BENCH_TRIALS: "100,1000" })).toMatch(/this build\s+100\s[\s\S]*this build\s+1000\s/);
  }, 120_000);
});
