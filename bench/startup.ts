/**
 * Start-up, against `node -e ""` as the floor: `eval-simulate validate` and `eval --dry` of the
 * crm example to their exit, and, for a generated manifest of 20 servers × 50 tools with 5
 * scenarios, `validate` to its exit and `serve` from process start to `/health` answering. Each
 * command runs as: this build with the manifest cache off (EVAL_SIMULATE_CACHE=0: every start
 * checks in full), this build with the cache warm (a `validate` of each manifest wrote its entry,
 * as `serve` after `validate` or a second `eval` finds it), and, when BENCH_BASELINE names
 * another built checkout (main, say), that build on its own copy of the crm example, so each
 * step's gain reads off one run. Interleaved runs; medians of wall time and of the process's CPU
 * time (user + system, from bench/support/report-cpu.cjs), which a loaded machine inflates less.
 *
 *   npm run build && BENCH_BASELINE=/path/to/main node --import jiti/register bench/startup.ts
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBigManifest } from "./support/big-manifest.js";
import { median } from "./support/load.js";
import { ROOT, table } from "./support/processes.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const manifest = writeBigManifest(join(ROOT, "bench", ".generated", "big"));
const CPU = ["--require", join(ROOT, "bench/support/report-cpu.cjs")];
const cacheDir = mkdtempSync(join(tmpdir(), "eval-simulate-bench-cache-"));
process.on("exit", () => rmSync(cacheDir, { recursive: true, force: true }));

/** One build run one way: its checkout (the crm example is its own copy's) and its environment. */
interface Build {
  label: string;
  root: string;
  env: NodeJS.ProcessEnv;
}
const builds: Build[] = [
  ...(process.env.BENCH_BASELINE ? [{ label: "baseline", root: process.env.BENCH_BASELINE, env: {} }] : []),
  { label: "cache off", root: ROOT, env: { EVAL_SIMULATE_CACHE: "0" } },
  { label: "cache warm", root: ROOT, env: { EVAL_SIMULATE_CACHE_DIR: cacheDir } },
];
const cliOf = (build: Build) => join(build.root, "dist/cli/main.js");
const crmOf = (build: Build) => join(build.root, "examples/crm");

/** A run's wall and CPU milliseconds. */
interface Sample {
  wall: number;
  cpu: number;
}

/** The CPU milliseconds the child wrote to fd 3 at exit. */
function cpuOf(child: ReturnType<typeof spawn>): Promise<number> {
  let text = "";
  child.stdio[3]?.on("data", (chunk) => (text += chunk));
  return new Promise((resolve) => child.stdio[3]?.on("end", () => resolve(Number(text.trim()))));
}

/** From spawn to exit. */
function timeExit(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...CPU, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "ignore", "pipe"] });
    const cpu = cpuOf(child);
    child.on("exit", (code) => {
      const wall = performance.now() - started;
      if (code !== 0) return reject(new Error(`${args.join(" ")} exited ${code}`));
      cpu.then((ms) => resolve({ wall, cpu: ms }));
    });
  });
}

/** From spawn to `/health` answering (wall), then stops the server (CPU: to its exit). */
function timeServe(cli: string, env: NodeJS.ProcessEnv = {}): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...CPU, cli, "serve", manifest, "--port", "0", "--host", "127.0.0.1"], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit", "pipe"],
    });
    const cpu = cpuOf(child);
    let out = "";
    child.stdout?.on("data", async (chunk) => {
      out += chunk;
      const port = /at http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (!port || out.includes("\u0000")) return;
      out += "\u0000";
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      if (!response.ok) return reject(new Error("health failed"));
      const elapsed = performance.now() - started;
      child.once("exit", () => cpu.then((ms) => resolve({ wall: elapsed, cpu: ms })));
      child.kill("SIGTERM");
    });
    child.once("error", reject);
  });
}

const commands: Array<[string, (build: Build) => Promise<Sample>]> = [
  ["validate examples/crm", (b) => timeExit([cliOf(b), "validate", join(crmOf(b), "fakes.yaml")], b.env)],
  ["eval --dry examples/crm", (b) => timeExit([cliOf(b), "eval", join(crmOf(b), "evals.yaml"), "--dry"], b.env)],
  ["validate 20 × 50", (b) => timeExit([cliOf(b), "validate", manifest], b.env)],
  ["serve 20 × 50 → /health", (b) => timeServe(cliOf(b), b.env)],
];
const floor: Sample[] = [];
const samples = builds.map(() => commands.map(() => [] as Sample[]));
// Warms the disk cache, and writes the warm cache's entries (the crm manifest and the big one).
for (const build of builds) {
  await timeExit([cliOf(build), "validate", manifest], build.env);
  await timeExit([cliOf(build), "validate", join(crmOf(build), "fakes.yaml")], build.env);
}
for (let i = 0; i < RUNS; i++) {
  floor.push(await timeExit(["-e", ""]));
  for (const [n, [, run]] of commands.entries()) {
    for (const [b, build] of builds.entries()) samples[b][n].push(await run(build));
  }
}
const wall = (of: Sample[]) => median(of.map((s) => s.wall));
const cpu = (of: Sample[]) => median(of.map((s) => s.cpu));
const cell = (of: Sample[]) =>
  `${wall(of).toFixed(0)} ms ${(wall(of) / wall(floor)).toFixed(2)}× | CPU ${cpu(of).toFixed(0)} ms ${(cpu(of) / cpu(floor)).toFixed(2)}×`;
console.log(`Start-up (${RUNS} interleaved runs, medians; × node -e "": wall ${wall(floor).toFixed(0)} ms, CPU ${cpu(floor).toFixed(0)} ms)`);
console.log(
  table([
    ["command", ...builds.map((build) => `${build.label}: wall | CPU`)],
    ...commands.map(([label], n) => [label, ...builds.map((_, b) => cell(samples[b][n]))]),
  ]),
);
