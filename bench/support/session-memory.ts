/**
 * Memory per idle session: examples/crm served in this process, then N sessions created; prints
 * `{ n, rssPerSessionKb, heapPerSessionKb }` as JSON. Run with --expose-gc (bench/sessions.ts does).
 * With a second argument, a number of orders: the ported benchmark's shape of that size instead
 * (bench/support/scaled-recipe.ts; 1,400 orders are about 3 MB of JSON).
 *
 *   node --expose-gc --import jiti/register bench/support/session-memory.ts 1000
 *   node --expose-gc --import jiti/register bench/support/session-memory.ts 10000 1400
 */
import { join } from "node:path";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { startServices } from "../../engine/serve/host/start-services.js";
import { ROOT } from "./processes.js";
import { writeScaledRecipe } from "./scaled-recipe.js";

const n = Number(process.argv[2] ?? 1000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const orders = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const scaled = orders === undefined ? undefined : writeScaledRecipe(join(ROOT, "bench", ".generated", "session-memory"), { orders, tasks: 1 });
const manifest = scaled?.manifest ?? join(ROOT, "examples/crm/fakes.yaml");
const { fakes, world } = await loadFakes(manifest, { clock: "2026-10-01T09:00:00Z" });
const services = await startServices(fakes, { world, clock: "2026-10-01T09:00:00Z", maxSessions: n + 1 });
// The scenario's template is built by the first session; it is shared, not a per-session cost.
const warm = await services.createSession();
await warm.close();
await settle();
const before = process.memoryUsage();
const sessions = [];
for (let i = 0; i < n; i++) sessions.push(await services.createSession());
await settle();
const after = process.memoryUsage();
console.log(
  JSON.stringify({
    n,
    rssPerSessionKb: (after.rss - before.rss) / n / 1024,
    heapPerSessionKb: (after.heapUsed - before.heapUsed) / n / 1024,
    live: sessions.length,
    ...(scaled && { worldBytes: scaled.bytes }),
  }),
);
await services.close();
