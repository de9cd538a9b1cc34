/**
 * `npm run bench`: every benchmark in turn, each in its own process, printing its table.
 * BENCH_CALLS, BENCH_ROUNDS and BENCH_RUNS shrink or grow them.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./support/processes.js";

const scripts = [
  "mcp-throughput.ts",
  "mcp-call-cpu.ts",
  "state-size.ts",
  "state-file.ts",
  "startup.ts",
  "api-vs-prism.ts",
  "sessions.ts",
  "judge.ts",
  "runner.ts",
  "conversation.ts",
  "workers.ts",
  "tracing.ts",
  "resume.ts",
];
console.log(`eval-simulate benchmarks, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.platform} ${process.arch}\n`);
for (const script of process.argv.slice(2).length ? process.argv.slice(2) : scripts) {
  execFileSync(process.execPath, ["--import", "jiti/register", join(ROOT, "bench", script)], { stdio: "inherit", cwd: ROOT });
  console.log();
}
