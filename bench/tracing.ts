/**
 * What tracing costs a fake: MCP tools/call throughput of `serve` with tracing off, and on to an
 * OTLP/HTTP collector on loopback (protobuf, then JSON), side by side in one run. Each server
 * runs in its own process; rounds interleave the subjects so a noisy machine slows them alike.
 * The collector is a node:http server in its own process that counts spans' bytes and answers
 * 200. Besides calls/s, each server's own CPU time per call (from /proc, so a machine loaded by
 * others skews it less than wall time). Also: what loading the SDK costs once (what a run
 * without tracing never pays).
 *
 *   npm run build && node --import jiti/register bench/tracing.ts
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CALLED, writeFiftyToolFakes } from "./support/fifty-tools.js";
import { drive, median, post, quantile, type RunResult, toolsCall } from "./support/load.js";
import { ROOT, type Subject, startSubject, table } from "./support/processes.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONCURRENCY = 8;

const files = writeFiftyToolFakes(join(ROOT, "bench", ".generated", "fifty"));
const serve = [join(ROOT, "dist/cli/main.js"), "serve", files.jsonata, "--port", "0", "--host", "127.0.0.1"];
const collectorScript = `
const { createServer } = require("node:http");
let bytes = 0;
const server = createServer((req, res) => { req.on("data", (c) => (bytes += c.length)); req.on("end", () => res.writeHead(200, { "content-type": req.headers["content-type"] }).end(req.headers["content-type"].includes("json") ? "{}" : "")); });
server.listen(0, "127.0.0.1", () => console.log("listening on " + server.address().port));
process.on("SIGTERM", () => { console.error("collector received " + bytes + " bytes"); process.exit(0); });
`;

const collector = await startSubject("collector", ["-e", collectorScript]);
const endpoint = `http://127.0.0.1:${collector.port}`;
const subjects: Subject[] = [
  await startSubject("tracing off", serve, { OTEL_EXPORTER_OTLP_ENDPOINT: "" }),
  await startSubject("tracing on, http/protobuf", serve, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf" }),
  await startSubject("tracing on, http/json", serve, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json" }),
];
const urlOf = (s: Subject) => `http://127.0.0.1:${s.port}/bench/mcp`;
// A client that sends its trace context in _meta, as the runner's model host does.
const { body, headers } = toolsCall(CALLED, { id: "abc" });
const traced = JSON.parse(body);
traced.params._meta = { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" };
const tracedBody = JSON.stringify(traced);

/** A process's CPU time so far in ms (user + system, from /proc/<pid>/stat; 0 where there is no /proc). */
function cpuMs(s: Subject): number {
  try {
    const fields = readFileSync(`/proc/${s.child.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (100 a second)
  } catch {
    return 0;
  }
}

const results = new Map<string, { sequential: RunResult[]; concurrent: RunResult[]; cpuMs: number; calls: number }>(
  subjects.map((s) => [s.label, { sequential: [], concurrent: [], cpuMs: 0, calls: 0 }]),
);
try {
  for (const s of subjects) {
    const answer = await post(urlOf(s), tracedBody, headers);
    if (!answer.includes('\\"counter\\":7')) throw new Error(`${s.label} answered ${answer}`);
    await drive(() => post(urlOf(s), tracedBody, headers), Math.min(200, CALLS), CONCURRENCY); // warm up
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < subjects.length; i++) {
      const s = subjects[(i + round) % subjects.length];
      const send = () => post(urlOf(s), tracedBody, headers);
      const r = results.get(s.label)!;
      const before = cpuMs(s);
      r.sequential.push(await drive(send, CALLS, 1));
      r.concurrent.push(await drive(send, CALLS, CONCURRENCY));
      r.cpuMs += cpuMs(s) - before;
      r.calls += 2 * CALLS;
    }
  }
} finally {
  await Promise.all(subjects.map((s) => s.stop()));
  await collector.stop();
}

// Loading the SDK, in a fresh process each time: the cost a run without tracing never pays.
const loads = Array.from({ length: Math.max(3, ROUNDS) }, () =>
  Number(
    execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const t = performance.now(); await import(${JSON.stringify(join(ROOT, "dist/engine/serve/telemetry/otel-tracer.js"))}); console.log(performance.now() - t);`,
      ],
      { encoding: "utf8" },
    ),
  ),
);

const f = (n: number, d = 0) => n.toFixed(d);
const summary = subjects.map((s) => {
  const r = results.get(s.label)!;
  return {
    label: s.label,
    cpuUs: (r.cpuMs * 1000) / r.calls,
    seqRate: median(r.sequential.map((x) => x.callsPerSecond)),
    conRate: median(r.concurrent.map((x) => x.callsPerSecond)),
    seqLat: r.sequential.flatMap((x) => x.latenciesMs),
    conLat: r.concurrent.flatMap((x) => x.latenciesMs),
  };
});
const off = summary[0];
console.log(
  `MCP tools/call with _meta.traceparent, 50-tool fake, ${ROUNDS} interleaved rounds × ${CALLS} calls, sequential and ${CONCURRENCY} concurrent clients`,
);
console.log(
  table([
    [
      "subject",
      "seq calls/s",
      "p50 ms",
      "p99 ms",
      `x${CONCURRENCY} calls/s`,
      "p50 ms",
      "p99 ms",
      "vs off (seq)",
      `vs off (x${CONCURRENCY})`,
      "server CPU µs/call",
      "vs off (CPU)",
    ],
    ...summary.map((s) => [
      s.label,
      f(s.seqRate),
      f(quantile(s.seqLat, 0.5), 2),
      f(quantile(s.seqLat, 0.99), 2),
      f(s.conRate),
      f(quantile(s.conLat, 0.5), 2),
      f(quantile(s.conLat, 0.99), 2),
      `${f(s.seqRate / off.seqRate, 2)}×`,
      `${f(s.conRate / off.conRate, 2)}×`,
      f(s.cpuUs),
      `${f(off.cpuUs / s.cpuUs, 2)}×`,
    ]),
  ]),
);
console.log(`loading the OpenTelemetry SDK (once per traced process): median ${f(median(loads), 1)} ms over ${loads.length} fresh processes`);
