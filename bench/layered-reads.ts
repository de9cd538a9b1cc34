/**
 * Reading an entity too large to copy (engine/core/record/layered-object.ts), side by side in one
 * run: a layer against the plain frozen object it stands for (`Object.keys`, `JSON.stringify`),
 * and a TypeScript write that reaches every record (a scan for one, then a change to it) or
 * only the keys (`Object.keys(orders).length`, a new id), on a store that lays the entity over
 * against one that copies it (`layeredMinKeys` past its size). 100,000 small order records;
 * each figure is the best of ROUNDS runs (a shared machine's waits for a core inflate the others).
 *
 *   npm run build && node --import jiti/register bench/layered-reads.ts
 */
import { StateStore } from "../dist/engine/serve/runtime/index.js";

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
type Order = { id: string; status: string; total: number };

function store(layeredMinKeys: number): StateStore {
  const orders: Record<string, Order> = {};
  for (let i = 0; i < RECORDS; i++) orders[`o-${i}`] = { id: `o-${i}`, status: "new", total: i };
  const made = new StateStore({ shop: { orders } }, undefined, false, { layeredMinKeys });
  // One write first, so the layered store holds a layer (the copied one a new plain object).
  write(made, (o) => void (o["o-1"].status = "seen"));
  return made;
}

function write(on: StateStore, body: (orders: Record<string, Order>) => void): void {
  const draft = on.draft("shop", ["orders"]);
  body(draft.state.orders as Record<string, Order>);
  on.commit("shop", draft.changes()!);
}

const best = (task: () => void): number => {
  let least = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const at = performance.now();
    task();
    least = Math.min(least, performance.now() - at);
  }
  return least;
};

const laid = store(1);
const copied = store(Number.MAX_SAFE_INTEGER);
const layer = laid.states.shop.orders as object;
const plain = laid.initial.shop.orders as object;
let step = 0;
const scan = (orders: Record<string, Order>) => {
  const hit = Object.values(orders).find((order) => order.total === step % RECORDS);
  if (hit) hit.status = `s${step++}`;
};
const count = (orders: Record<string, Order>) => void (orders[`n-${Object.keys(orders).length}`] = { id: "n", status: "new", total: 0 });
const rows: Array<[string, number, number]> = [
  ["Object.keys (layer | plain)", best(() => Object.keys(layer)), best(() => Object.keys(plain))],
  ["JSON.stringify (layer | plain)", best(() => JSON.stringify(layer)), best(() => JSON.stringify(plain))],
  ["write after a scan (laid | copied)", best(() => write(laid, scan)), best(() => write(copied, scan))],
  ["write a new id from the key count (laid | copied)", best(() => write(laid, count)), best(() => write(copied, count))],
  [
    "write one record (laid | copied)",
    best(() => write(laid, (o) => void (o["o-7"].total += 1))),
    best(() => write(copied, (o) => void (o["o-7"].total += 1))),
  ],
];
console.log(`${RECORDS} records, best of ${ROUNDS}, ms`);
for (const [label, a, b] of rows) console.log(`${label.padEnd(52)} ${a.toFixed(1).padStart(8)} ${b.toFixed(1).padStart(8)}   ${(a / b).toFixed(2)}×`);
