/**
 * Sessions, measured side by side in one run:
 * - create + delete one session of the 20-server × 50-tool start-up manifest, over HTTP and from
 *   the library (median, p95), against starting a `serve` process for it (spawn → /health);
 * - memory per idle session of examples/crm at 1,000 and 10,000 sessions (RSS and heap delta / N,
 *   each count in a fresh process);
 * - MCP calls/s from 8 concurrent clients spread over 100 sessions against 8 clients on the
 *   process's own world, same process, interleaved rounds.
 * Loopback only; BENCH_CALLS, BENCH_ROUNDS, BENCH_RUNS and BENCH_SESSIONS shrink or grow it.
 *
 *   npm run build && node --import jiti/register bench/sessions.ts
 */
import { execFileSync, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { loadFakes } from "../engine/author/fakes/load-fakes.js";
import { startServices } from "../engine/serve/host/start-services.js";
import { writeBigManifest } from "./support/big-manifest.js";
import { CALLED, writeFiftyToolFakes } from "./support/fifty-tools.js";
import { drive, median, post, quantile, toolsCall } from "./support/load.js";
import { ROOT, startSubject, table } from "./support/processes.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const COUNTS = (process.env.BENCH_SESSIONS ?? "1000,10000").split(",").map(Number);
const cli = join(ROOT, "dist/cli/main.js");
const f = (n: number, d = 0) => n.toFixed(d);

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
/** One request on a kept-alive connection, as the load helper's POST makes them. */
function send(method: string, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => ((res.statusCode ?? 0) < 300 ? resolve(text) : reject(new Error(`${res.statusCode} ${text}`))));
    });
    req.on("error", reject);
    req.end();
  });
}

// 1. Create + delete against a process start.
const big = writeBigManifest(join(ROOT, "bench", ".generated", "big"));
function timeServe(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, "serve", big, "--port", "0", "--host", "127.0.0.1"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    let seen = false;
    child.stdout.on("data", async (chunk) => {
      out += chunk;
      const port = /at http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (!port || seen) return;
      seen = true;
      if (!(await fetch(`http://127.0.0.1:${port}/health`)).ok) return reject(new Error("health failed"));
      const elapsed = performance.now() - started;
      child.once("exit", () => resolve(elapsed));
      child.kill("SIGTERM");
    });
    child.once("error", reject);
  });
}
const starts: number[] = [];
for (let i = 0; i < RUNS; i++) starts.push(await timeServe());

const bigServe = await startSubject("big manifest", [cli, "serve", big, "--port", "0", "--host", "127.0.0.1"]);
const origin = `http://127.0.0.1:${bigServe.port}`;
const overHttp: number[] = [];
try {
  for (let i = 0; i < CALLS + 20; i++) {
    const t = performance.now();
    const { id } = JSON.parse(await send("POST", `${origin}/sessions`)) as { id: string };
    await send("DELETE", `${origin}/sessions/${id}`);
    if (i >= 20) overHttp.push(performance.now() - t);
  }
} finally {
  await bigServe.stop();
}
const loaded = await loadFakes(big);
const inProcess = await startServices(loaded.fakes, { world: loaded.world, warn: () => {} });
const library: number[] = [];
try {
  for (let i = 0; i < CALLS + 20; i++) {
    const t = performance.now();
    const session = await inProcess.createSession();
    await session.close();
    if (i >= 20) library.push(performance.now() - t);
  }
} finally {
  await inProcess.close();
}
const start = median(starts);
console.log(`Sessions: create + delete, 20 servers × 50 tools (${CALLS} sessions; ${RUNS} process starts), against a process start`);
console.log(
  table([
    ["how", "median ms", "p95 ms", "× faster than a process start"],
    ["eval-simulate serve → /health", f(start, 0), f(quantile(starts, 0.95), 0), "1×"],
    ["POST + DELETE /sessions (HTTP)", f(median(overHttp), 3), f(quantile(overHttp, 0.95), 3), `${f(start / median(overHttp))}×`],
    ["createSession + close (library)", f(median(library), 3), f(quantile(library, 0.95), 3), `${f(start / median(library))}×`],
  ]),
);

// 2. Memory per idle session, each count in a fresh process.
const memory = COUNTS.map((n) => {
  const out = execFileSync(process.execPath, ["--expose-gc", "--import", "jiti/register", join(ROOT, "bench/support/session-memory.ts"), String(n)], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").pop()!) as { n: number; rssPerSessionKb: number; heapPerSessionKb: number };
});
console.log("\nSessions: memory per idle session of examples/crm (delta / N, after gc)");
console.log(
  table([["sessions", "RSS KB / session", "heap KB / session"], ...memory.map((m) => [String(m.n), f(m.rssPerSessionKb, 1), f(m.heapPerSessionKb, 1)])]),
);

// 3. Calls/s: 8 clients over 100 sessions against 8 clients on one world, in one process.
const files = writeFiftyToolFakes(join(ROOT, "bench", ".generated", "fifty"));
const subject = await startSubject("fifty tools", [cli, "serve", files.jsonata, "--port", "0", "--host", "127.0.0.1"]);
const base = `http://127.0.0.1:${subject.port}`;
const { body, headers } = toolsCall(CALLED, { id: "abc" });
const rates = { world: [] as number[], sessions: [] as number[] };
try {
  const sids: string[] = [];
  for (let i = 0; i < 100; i++) sids.push((JSON.parse(await post(`${base}/sessions`, "{}", {})) as { id: string }).id);
  let next = 0;
  const own = () => post(`${base}/bench/mcp`, body, headers);
  const spread = () => post(`${base}/s/${sids[next++ % sids.length]}/bench/mcp`, body, headers);
  await drive(own, Math.min(200, CALLS), 8);
  await drive(spread, Math.min(200, CALLS), 8);
  for (let round = 0; round < ROUNDS; round++) {
    const order: Array<"world" | "sessions"> = round % 2 === 0 ? ["world", "sessions"] : ["sessions", "world"];
    for (const which of order) rates[which].push((await drive(which === "world" ? own : spread, CALLS, 8)).callsPerSecond);
  }
} finally {
  await subject.stop();
}
console.log(`\nSessions: MCP tools/call, 50-tool fake, 8 concurrent clients, ${ROUNDS} interleaved rounds × ${CALLS} calls (medians)`);
console.log(
  table([
    ["subject", "calls/s", "vs one world"],
    ["one world × 8 clients", f(median(rates.world)), "1.00×"],
    ["100 sessions × 8 clients", f(median(rates.sessions)), `${f(median(rates.sessions) / median(rates.world), 2)}×`],
  ]),
);
