/**
 * What one MCP tools/call costs the engine in CPU, in-process and without HTTP: the 50-tool
 * fake of `mcp-throughput.ts` with JSONata and with TypeScript handlers, each request handed to
 * the host's fetch function as the node:http adapter hands it (the body parsed). Blocks of calls
 * interleave the two (A B, B A, …); the figure is the process's CPU time per call, which a
 * machine loaded by other work inflates far less than wall time. Sequential and 8 at a time.
 *
 *   npm run build && node --import jiti/register bench/mcp-call-cpu.ts
 */
import { join } from "node:path";
import { loadFakes, startServices } from "../dist/engine/index.js";
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
