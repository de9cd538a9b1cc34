/**
 * A TypeScript write to one record of an entity keyed by id, in-process, side by side: the
 * entity laid over (what a store does from LAYERED_MIN_KEYS keys on) against the entity copied
 * by immer (a store told to lay nothing over), at 10, 1,000, 10,000 and 100,000 records. Each
 * write is what a call makes: a draft, one record changed, the changes committed; then one read
 * of the changed record. Interleaved rounds, medians; CPU µs a write (GC included).
 *
 *   npm run build && node --import jiti/register bench/layered-write.ts
 */
import { StateStore } from "../dist/engine/serve/runtime/index.js";
import { median } from "./support/load.js";
import { table } from "./support/processes.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const sizes = [10, 1_000, 10_000, 100_000];

type Order = { id: string; status: string; total: number };

function world(size: number) {
  const orders: Record<string, Order> = {};
  for (let i = 0; i < size; i++) orders[`o-${i}`] = { id: `o-${i}`, status: "open", total: i % 97 };
  return { shop: { orders } };
}

/** CPU µs a write, over `writes` writes on a store of `size` records. */
function writesCost(size: number, layered: boolean, writes: number): number {
  const store = new StateStore(world(size), undefined, false, { layeredMinKeys: layered ? 1 : Number.POSITIVE_INFINITY });
  const started = process.cpuUsage();
  for (let i = 0; i < writes; i++) {
    const draft = store.draft("shop", ["orders"]);
    const id = `o-${(i * 7919) % size}`;
    (draft.state.orders as Record<string, Order>)[id].status = i % 2 ? "open" : "shipped";
    store.commit("shop", draft.changes()!);
    if ((store.states.shop.orders as Record<string, Order>)[id].id !== id) throw new Error("lost a record");
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / writes;
}

const rows = [["records", "copied µs / write", "laid over µs / write", "copied / laid over"]];
for (const size of sizes) {
  const writes = size >= 100_000 ? 60 : size >= 10_000 ? 300 : 2_000;
  const copied: number[] = [];
  const laid: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    copied.push(writesCost(size, false, writes));
    laid.push(writesCost(size, true, writes));
  }
  rows.push([size.toLocaleString("en"), median(copied).toFixed(1), median(laid).toFixed(1), `${(median(copied) / median(laid)).toFixed(1)}×`]);
}
console.log(`A TypeScript write to one record, in-process (${ROUNDS} interleaved rounds, medians of CPU per write)`);
console.log(table(rows));
