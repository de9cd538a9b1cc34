/**
 * Start-up, against `node -e ""` as the floor: `eval-simulate validate` and `eval --dry` of the
 * crm example to their exit, and, for a generated manifest of 20 servers × 50 tools with 5
 * scenarios, `validate` to its exit and `serve` from process start to `/health` answering. Each
 * command runs twice: with the published schemas' validators the build precompiled
 * (dist/validators/) and with them compiled at run time (EVAL_SIMULATE_PRECOMPILED=0), so the
 * step's gain reads off one run. Interleaved runs; medians of wall time and of the process's CPU
 * time (user + system, from bench/support/report-cpu.cjs), which a loaded machine inflates less.
 *
 *   npm run build && node --import jiti/register bench/startup.ts
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { writeBigManifest } from "./support/big-manifest.js";
import { median } from "./support/load.js";
import { ROOT, table } from "./support/processes.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const manifest = writeBigManifest(join(ROOT, "bench", ".generated", "big"));
const cli = join(ROOT, "dist/cli/main.js");
const crm = join(ROOT, "examples/crm");
const RUNTIME_COMPILE = { EVAL_SIMULATE_PRECOMPILED: "0" };
const CPU = ["--require", join(ROOT, "bench/support/report-cpu.cjs")];

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
function timeServe(env: NodeJS.ProcessEnv = {}): Promise<Sample> {
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

const commands: Array<[string, (env: NodeJS.ProcessEnv) => Promise<Sample>]> = [
  ["validate examples/crm", (env) => timeExit([cli, "validate", join(crm, "fakes.yaml")], env)],
  ["eval --dry examples/crm", (env) => timeExit([cli, "eval", join(crm, "evals.yaml"), "--dry"], env)],
  ["validate 20 × 50", (env) => timeExit([cli, "validate", manifest], env)],
  ["serve 20 × 50 → /health", (env) => timeServe(env)],
];
const floor: Sample[] = [];
const precompiled = commands.map(() => [] as Sample[]);
const runtime = commands.map(() => [] as Sample[]);
await timeExit([cli, "validate", manifest]); // warm the disk cache
for (let i = 0; i < RUNS; i++) {
  floor.push(await timeExit(["-e", ""]));
  for (const [n, [, run]] of commands.entries()) {
    precompiled[n].push(await run({}));
    runtime[n].push(await run(RUNTIME_COMPILE));
  }
}
const wall = (samples: Sample[]) => median(samples.map((s) => s.wall));
const cpu = (samples: Sample[]) => median(samples.map((s) => s.cpu));
const cell = (samples: Sample[]) =>
  `${wall(samples).toFixed(0)} ms ${(wall(samples) / wall(floor)).toFixed(2)}× | CPU ${cpu(samples).toFixed(0)} ms ${(cpu(samples) / cpu(floor)).toFixed(2)}×`;
console.log(`Start-up (${RUNS} interleaved runs, medians; × node -e "": wall ${wall(floor).toFixed(0)} ms, CPU ${cpu(floor).toFixed(0)} ms)`);
console.log(
  table([
    ["command", "schemas precompiled: wall | CPU", "schemas compiled at run time: wall | CPU"],
    ...commands.map(([label], n) => [label, cell(precompiled[n]), cell(runtime[n])]),
  ]),
);
