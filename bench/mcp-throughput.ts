/**
 * MCP call throughput and latency, side by side in one run: the engine serving a 50-tool fake
 * with (a) JSONata and (b) TypeScript handlers, (c) the same tools hand-written on the SDK
 * (McpServer + createMcpHandler), and (d) a bare node:http JSON-RPC echo (the floor). Each
 * server runs in its own process; rounds interleave the subjects (A B C D, B C D A, …) so a noisy
 * machine slows them alike. Beside the rates, each server's own CPU time per call (its threads'
 * time on a CPU, read from /proc on Linux): on a machine loaded by other work that is the figure
 * the load changes least. Loopback only; bounded by BENCH_CALLS × BENCH_ROUNDS.
 *
 * BENCH_BASELINE=<another checkout, built> adds its engine's two subjects to the same rounds, to
 * compare a change with what it changes side by side.
 *
 *   npm run build && node --import jiti/register bench/mcp-throughput.ts
 */
import { join } from "node:path";
import { CALLED, writeFiftyToolFakes } from "./support/fifty-tools.js";
import { drive, median, post, quantile, type RunResult, toolsCall } from "./support/load.js";
import { cpuNanoseconds, ROOT, type Subject, startSubject, table } from "./support/processes.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONCURRENCY = 8;

const files = writeFiftyToolFakes(join(ROOT, "bench", ".generated", "fifty"));
const serve = (file: string, root = ROOT) => [join(root, "dist/cli/main.js"), "serve", file, "--port", "0", "--host", "127.0.0.1"];
const BASELINE = process.env.BENCH_BASELINE;
const tsx = (file: string) => ["--import", "jiti/register", join(ROOT, "bench/servers", file)];

const subjects: Subject[] = [
  await startSubject("engine, JSONata handler", serve(files.jsonata)),
  await startSubject("engine, TypeScript handler", serve(files.typescript)),
  await startSubject("SDK by hand (McpServer per request)", tsx("sdk-server.ts")),
  await startSubject("bare node:http echo (floor)", tsx("echo-server.ts")),
  ...(BASELINE
    ? [
        await startSubject("baseline engine, JSONata handler", serve(files.jsonata, BASELINE)),
        await startSubject("baseline engine, TypeScript handler", serve(files.typescript, BASELINE)),
      ]
    : []),
];
const urlOf = (s: Subject) => (s.label.includes("engine") ? `http://127.0.0.1:${s.port}/bench/mcp` : `http://127.0.0.1:${s.port}/mcp`);

const { body, headers } = toolsCall(CALLED, { id: "abc" });
type Measured = RunResult & { cpuUsPerCall: number };
const results = new Map<string, { sequential: Measured[]; concurrent: Measured[] }>(subjects.map((s) => [s.label, { sequential: [], concurrent: [] }]));
/** One run of `calls`, with the server's CPU time per call (NaN where /proc cannot tell). */
async function measure(s: Subject, send: () => Promise<string>, concurrency: number): Promise<Measured> {
  const before = cpuNanoseconds(s.child.pid) ?? Number.NaN;
  const run = await drive(send, CALLS, concurrency);
  const after = cpuNanoseconds(s.child.pid) ?? Number.NaN;
  return { ...run, cpuUsPerCall: (after - before) / 1000 / CALLS };
}
try {
  for (const s of subjects) {
    const answer = await post(urlOf(s), body, headers);
    if (!answer.includes('\\"counter\\":7')) throw new Error(`${s.label} answered ${answer}`);
    await drive(() => post(urlOf(s), body, headers), Math.min(200, CALLS), CONCURRENCY); // warm up
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < subjects.length; i++) {
      const s = subjects[(i + round) % subjects.length];
      const send = () => post(urlOf(s), body, headers);
      results.get(s.label)!.sequential.push(await measure(s, send, 1));
      results.get(s.label)!.concurrent.push(await measure(s, send, CONCURRENCY));
    }
  }
} finally {
  await Promise.all(subjects.map((s) => s.stop()));
}

const summary = subjects.map((s) => {
  const r = results.get(s.label)!;
  const seqRate = median(r.sequential.map((x) => x.callsPerSecond));
  const conRate = median(r.concurrent.map((x) => x.callsPerSecond));
  const seqLat = r.sequential.flatMap((x) => x.latenciesMs);
  const conLat = r.concurrent.flatMap((x) => x.latenciesMs);
  const seqCpu = median(r.sequential.map((x) => x.cpuUsPerCall));
  const conCpu = median(r.concurrent.map((x) => x.cpuUsPerCall));
  return { label: s.label, seqRate, conRate, seqLat, conLat, seqCpu, conCpu };
});
const sdk = summary[2];
const echo = summary[3];
const f = (n: number, d = 0) => n.toFixed(d);
console.log(`MCP tools/call, 50-tool fake, ${ROUNDS} interleaved rounds × ${CALLS} calls, sequential and ${CONCURRENCY} concurrent clients`);
console.log(
  table([
    ["subject", "seq calls/s", "p50 ms", "p99 ms", `x${CONCURRENCY} calls/s`, "p50 ms", "p99 ms", "vs SDK (x8)", "vs echo (x8)"],
    ...summary.map((s) => [
      s.label,
      f(s.seqRate),
      f(quantile(s.seqLat, 0.5), 2),
      f(quantile(s.seqLat, 0.99), 2),
      f(s.conRate),
      f(quantile(s.conLat, 0.5), 2),
      f(quantile(s.conLat, 0.99), 2),
      `${f(s.conRate / sdk.conRate, 2)}×`,
      `${f(s.conRate / echo.conRate, 2)}×`,
    ]),
  ]),
);
const [jsonata, typescript] = summary;
console.log(
  `JSONata vs TypeScript handler (x${CONCURRENCY}): ${f(jsonata.conRate / typescript.conRate, 2)}×; sequential ${f(jsonata.seqRate / typescript.seqRate, 2)}×`,
);
// Calls per CPU-second of the server against the SDK's: > 1× is cheaper than the SDK server.
console.log(`\nServer CPU per call (median of ${ROUNDS} rounds; the client's is not counted)`);
console.log(
  table([
    ["subject", "seq µs/call", "vs SDK", `x${CONCURRENCY} µs/call`, "vs SDK"],
    ...summary.map((s) => [s.label, f(s.seqCpu), `${f(sdk.seqCpu / s.seqCpu, 2)}×`, f(s.conCpu), `${f(sdk.conCpu / s.conCpu, 2)}×`]),
  ]),
);
console.log(
  `JSONata vs TypeScript handler by CPU: sequential ${f(typescript.seqCpu / jsonata.seqCpu, 2)}×, x${CONCURRENCY} ${f(typescript.conCpu / jsonata.conCpu, 2)}×`,
);
