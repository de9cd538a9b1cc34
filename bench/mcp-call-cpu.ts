/**
 * What one MCP tools/call costs the engine in CPU, in-process and without HTTP: the 50-tool
 * fake of `mcp-throughput.ts` with JSONata and with TypeScript handlers, each request handed to
 * the host's fetch function as the node:http adapter hands it (the body parsed). Blocks of calls
 * interleave the two (A B, B A, …); the figure is the process's CPU time per call, which a
 * machine loaded by other work inflates far less than wall time. Sequential and 8 at a time.
 *
 * A second table times the runtime's `callTool` alone (no SDK, no host, no journal): the
 * handler's own share, where JSONata and TypeScript differ; BENCH_BASELINE=<another checkout,
 * built> adds that checkout's runtime to the same rounds.
 *
 *   npm run build && node --import jiti/register bench/mcp-call-cpu.ts
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
// tsc's files, not the package's bundle (dist/engine/index.js): rememberParsedBody must be the
// same module instance as the host's, and the bundle does not export it.
import { loadFakes } from "../dist/engine/author/fakes/index.js";
import { startServices } from "../dist/engine/serve/host/index.js";
import { rememberParsedBody } from "../dist/engine/serve/mcp/index.js";
import { CALLED, writeFiftyToolFakes } from "./support/fifty-tools.js";
import { median } from "./support/load.js";
import { ROOT, table } from "./support/processes.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CONCURRENCY = 8;

const files = writeFiftyToolFakes(join(ROOT, "bench", ".generated", "fifty"));
const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: CALLED, arguments: { id: "abc" } } };
const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };

const subjects = await Promise.all(
  (["jsonata", "typescript"] as const)
    .filter((kind) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY === kind)
    .map(async (kind) => {
      const { fakes, world } = await loadFakes(files[kind]);
      const services = await startServices(fakes, { world, port: 0, host: "127.0.0.1" });
      const url = `${services.url("bench")}`;
      const call = async () => {
        const request = new Request(url, { method: "POST", headers: { ...headers, host: new URL(url).host } });
        rememberParsedBody(request, structuredClone(message));
        const text = await (await services.fetch(request)).text();
        if (!text.includes('\\"counter\\":7')) throw new Error(`${kind} answered ${text}`);
      };
      return { kind, services, call };
    }),
);

/** CPU microseconds per call over `CALLS` calls made `concurrency` at a time. */
async function cpuPerCall(call: () => Promise<void>, concurrency: number): Promise<number> {
  let next = 0;
  const start = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < CALLS) await call();
    }),
  );
  const used = process.cpuUsage(start);
  return (used.user + used.system) / CALLS;
}

const results = new Map(subjects.map((s) => [s.kind, { seq: [] as number[], con: [] as number[] }]));
for (const s of subjects) await cpuPerCall(s.call, CONCURRENCY); // warm up
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < subjects.length; i++) {
    const s = subjects[(i + round) % subjects.length];
    results.get(s.kind)!.seq.push(await cpuPerCall(s.call, 1));
    results.get(s.kind)!.con.push(await cpuPerCall(s.call, CONCURRENCY));
  }
}
await Promise.all(subjects.map((s) => s.services.close()));

const f = (n: number) => n.toFixed(0);
const spread = (xs: number[]) => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;
console.log(`MCP tools/call in-process (no HTTP), 50-tool fake, ${ROUNDS} interleaved rounds × ${CALLS} calls: CPU µs per call`);
console.log(
  table([
    ["handler", "seq median", "seq range", `x${CONCURRENCY} median`, `x${CONCURRENCY} range`],
    ...subjects.map((s) => {
      const r = results.get(s.kind)!;
      return [s.kind, f(median(r.seq)), spread(r.seq), f(median(r.con)), spread(r.con)];
    }),
  ]),
);
const [j, t] = subjects.map((s) => results.get(s.kind)!);
if (j && t)
  console.log(
    `TypeScript / JSONata CPU per call: sequential ${(median(t.seq) / median(j.seq)).toFixed(2)}×, x${CONCURRENCY} ${(median(t.con) / median(j.con)).toFixed(2)}×`,
  );

// The runtime's callTool alone, on this checkout's build and the baseline's.
type Runtime = typeof import("../dist/engine/serve/runtime/index.js");
type Engine = typeof import("../dist/engine/author/fakes/index.js");
const builds: Array<[string, string]> = [["this build", ROOT]];
if (process.env.BENCH_BASELINE) builds.push(["baseline", process.env.BENCH_BASELINE]);
const pipelines: Array<{ label: string; call: () => Promise<unknown> }> = [];
for (const [build, root] of builds) {
  const runtime = (await import(pathToFileURL(join(root, "dist/engine/serve/runtime/index.js")).href)) as Runtime;
  const engine = (await import(pathToFileURL(join(root, "dist/engine/author/fakes/index.js")).href)) as Engine;
  for (const kind of ["jsonata", "typescript"] as const) {
    const { fakes } = await engine.loadFakes(files[kind]);
    const compiled = runtime.compileServer((fakes.bench as { manifest: Parameters<Runtime["compileServer"]>[0] }).manifest);
    const scope = { store: new runtime.StateStore({ bench: { counter: 7, items: [] } }), now: "2026-01-01T00:00:00.000Z", scenario: "bench" };
    const signal = new AbortController().signal;
    pipelines.push({ label: `${build}, ${kind}`, call: () => runtime.callTool(scope, compiled, CALLED, { id: "abc" }, signal) });
  }
}
const PIPELINE_CALLS = CALLS * 5;
const timed = new Map(pipelines.map((p) => [p.label, [] as number[]]));
// Round 0 warms every pipeline up and is not counted.
for (let round = 0; round <= ROUNDS; round++) {
  for (let i = 0; i < pipelines.length; i++) {
    const p = pipelines[(i + round) % pipelines.length];
    const start = process.cpuUsage();
    for (let n = 0; n < PIPELINE_CALLS; n++) await p.call();
    const used = process.cpuUsage(start);
    if (round > 0) timed.get(p.label)!.push((used.user + used.system) / PIPELINE_CALLS);
  }
}
const row = (label: string, xs: number[]) => [label, median(xs).toFixed(1), `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`];
console.log(`\nThe runtime's callTool alone (no SDK, no host), ${ROUNDS} interleaved rounds × ${PIPELINE_CALLS} calls: CPU µs per call`);
console.log(table([["build, handler", "median", "range"], ...pipelines.map((p) => row(p.label, timed.get(p.label)!))]));
