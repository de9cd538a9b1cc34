/**
 * Start-up: `eval-simulate serve` from process start to `/health` answering, and
 * `eval-simulate validate` to its exit, for a generated manifest of 20 servers × 50 tools with 5
 * scenarios, against `node -e ""` as the floor. Interleaved runs; medians.
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

/** Milliseconds from spawn to exit. */
function timeExit(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: "ignore" });
    child.on("exit", (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${args.join(" ")} exited ${code}`))));
  });
}

/** Milliseconds from spawn to `/health` answering, then stops the server. */
function timeServe(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, "serve", manifest, "--port", "0", "--host", "127.0.0.1"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", async (chunk) => {
      out += chunk;
      const port = /at http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (!port || out.includes("\u0000")) return;
      out += "\u0000";
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      if (!response.ok) return reject(new Error("health failed"));
      const elapsed = performance.now() - started;
      child.once("exit", () => resolve(elapsed));
      child.kill("SIGTERM");
    });
    child.once("error", reject);
  });
}

const samples = { floor: [] as number[], validate: [] as number[], serve: [] as number[] };
await timeExit([cli, "validate", manifest]); // warm the disk cache
for (let i = 0; i < RUNS; i++) {
  samples.floor.push(await timeExit(["-e", ""]));
  samples.validate.push(await timeExit([cli, "validate", manifest]));
  samples.serve.push(await timeServe());
}
const floor = median(samples.floor);
console.log(`Start-up, 20 servers × 50 tools, 5 scenarios (${RUNS} interleaved runs, medians)`);
console.log(
  table([
    ["command", "ms", '× node -e ""'],
    ['node -e ""', floor.toFixed(0), "1.00×"],
    ["eval-simulate validate", median(samples.validate).toFixed(0), `${(median(samples.validate) / floor).toFixed(2)}×`],
    ["eval-simulate serve → /health", median(samples.serve).toFixed(0), `${(median(samples.serve) / floor).toFixed(2)}×`],
  ]),
);
