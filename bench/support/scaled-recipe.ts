import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A Recipe written for a bench: its manifest and evals file. */
export interface ScaledRecipe {
  manifest: string;
  evals: string;
}

const CLOCK = "2026-10-01T09:00:00.000Z";

const TOOLS = [
  { name: "get-order", description: "Reads one order.", inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
  { name: "get-customer", description: "Reads one customer.", inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
  {
    name: "set-status",
    description: "Sets an order's status.",
    inputSchema: { type: "object", properties: { id: { type: "string" }, status: { type: "string" } }, required: ["id", "status"] },
  },
  {
    name: "set-status-jsonata",
    description: "Sets an order's status, in JSONata.",
    inputSchema: { type: "object", properties: { id: { type: "string" }, status: { type: "string" } }, required: ["id", "status"] },
  },
  {
    name: "add-note",
    description: "Adds a note to a customer.",
    inputSchema: { type: "object", properties: { id: { type: "string" }, note: { type: "string" } }, required: ["id", "note"] },
  },
];

const MANIFEST = `version: 1
servers:
  shop:
    captured: tools.json
    handlers: handlers.ts
    entities:
      orders: { schema: { type: object }, default: {} }
      customers: { schema: { type: object }, default: {} }
      products: { schema: { type: object }, default: {} }
    tools:
      get-order:
        reads: [orders]
        answer: { format: json, schema: { type: object } }
        jsonata: '$lookup($state.orders, $args.id)'
      get-customer:
        reads: [customers]
        answer: { format: json, schema: { type: object } }
        jsonata: '$lookup($state.customers, $args.id)'
      set-status:
        writes: [orders]
        answer: { format: json, schema: { type: object } }
      set-status-jsonata:
        writes: [orders]
        answer: { format: json, schema: { type: object } }
        jsonata:
          set:
            orders: '$merge([$state.orders, { $args.id: $merge([$lookup($state.orders, $args.id), { "status": $args.status }]) }])'
          return: '{ "id": $args.id, "status": $args.status }'
      add-note:
        writes: [customers]
        answer: { format: json, schema: { type: object } }
scenarios:
  quiet:
    default: true
    state:
      shop:
        orders: { $file: data/orders.json }
        customers: { $file: data/customers.json }
        products: { $file: data/products.json }
`;

const HANDLERS = `import { defineHandlers } from "eval-simulate";

type Order = { id: string; status: string };
type Customer = { id: string; notes: string[] };

export default defineHandlers({
  "set-status": (args, { state, fail }) => {
    const orders = state.orders as Record<string, Order>;
    const order = orders[args.id as string];
    if (!order) fail(\`no order \${args.id}\`);
    order.status = args.status as string;
    return { id: order.id, status: order.status };
  },
  "add-note": (args, { state, fail }) => {
    const customers = state.customers as Record<string, Customer>;
    const customer = customers[args.id as string];
    if (!customer) fail(\`no customer \${args.id}\`);
    customer.notes.push(args.note as string);
    return { id: customer.id, notes: customer.notes.length };
  },
});
`;

const pad = (n: number) => String(n).padStart(6, "0");

/**
 * A world of objects keyed by id, the ported benchmark's shape: `orders` orders (with items, about
 * 500 bytes each; `lean`: four fields), `customers` customers, a tenth as many products as orders.
 * Returns the bytes of JSON.
 */
function writeWorld(dir: string, orders: number, customers: number, lean: boolean): number {
  const products = Math.max(1, Math.floor(orders / 10));
  const data = join(dir, "data");
  mkdirSync(data, { recursive: true });
  const byId = <T>(n: number, make: (i: number) => T & { id: string }) => Object.fromEntries(Array.from({ length: n }, (_, i) => [make(i).id, make(i)]));
  const files = {
    orders: byId(orders, (i) =>
      lean
        ? { id: `o-${pad(i)}`, customer: `c-${pad(i % customers)}`, status: "open", total: i % 500 }
        : {
            id: `o-${pad(i)}`,
            customer: `c-${pad(i % Math.max(1, customers))}`,
            status: "open",
            placedAt: "2026-09-01T10:00:00.000Z",
            items: Array.from({ length: 4 }, (_, k) => ({ sku: `p-${pad((i + k) % products)}`, qty: 1 + ((i + k) % 3), price: 9.5 + k })),
            shipping: { street: `${i} Long Street`, city: "Springfield", zip: `${10000 + (i % 89999)}`, country: "US" },
            memo: "Leave at the front desk if nobody answers; call ahead for large parcels.",
            history: Array.from({ length: 8 }, (_, k) => ({
              at: `2026-09-0${1 + (k % 9)}T1${k}:00:00.000Z`,
              by: `agent-${k}`,
              what: `status check ${k}: nothing to report`,
            })),
          },
    ),
    customers: byId(customers, (i) => ({
      id: `c-${pad(i)}`,
      name: `Customer ${i}`,
      email: `customer-${i}@example.com`,
      tier: ["gold", "silver", "bronze"][i % 3],
      notes: ["Prefers email.", "Renewal due in spring."],
      address: { street: `${i} Short Street`, city: "Shelbyville", zip: `${20000 + (i % 79999)}`, country: "US" },
      since: "2019-03-04",
      bio: "A long-standing customer who orders in bulk each quarter and asks for itemised invoices. ".repeat(8),
    })),
    products: byId(products, (i) => ({ id: `p-${pad(i)}`, title: `Product ${i}`, price: 9.5 + (i % 20), stock: 100 + i, tags: ["a", "b", "c"] })),
  };
  let bytes = 0;
  for (const [name, value] of Object.entries(files)) {
    const text = JSON.stringify(value);
    bytes += text.length;
    writeFileSync(join(data, `${name}.json`), text);
  }
  return bytes;
}

/** One task: five calls (three reads, two writes), the script that makes them, golden on the same calls. */
function taskYaml(i: number, orders: number, customers: number, iterations: number, writer: "set-status" | "set-status-jsonata"): string {
  const order = `o-${pad((i * 37) % orders)}`;
  const other = `o-${pad((i * 37 + 11) % orders)}`;
  const customer = `c-${pad((i * 37) % customers)}`;
  const calls = [
    { tool: "shop/get-order", arguments: { id: order } },
    { tool: "shop/get-customer", arguments: { id: customer } },
    { tool: `shop/${writer}`, arguments: { id: order, status: "shipped" } },
    { tool: "shop/get-order", arguments: { id: other } },
    { tool: "shop/add-note", arguments: { id: customer, note: `Shipped ${order}.` } },
  ];
  return `  - id: task-${i}
    scenario: quiet
    clock: "${CLOCK}"
    iterations: ${iterations}
    accuracyThreshold: 1
    host: { type: script }
    script:
      calls: ${JSON.stringify(calls)}
      answer: Shipped.
    expect:
      callCount: { exact: 5 }
      state: { changed: [shop.orders, shop.customers], only: true }
      golden: ${JSON.stringify(calls)}
`;
}

/**
 * Writes a Recipe of `orders` orders (and as many customers) and `tasks` tasks of five calls,
 * each run `iterations` times, golden on every case, under `dir`; returns the manifest, the evals
 * file and the world's bytes of JSON.
 */
export function writeScaledRecipe(
  dir: string,
  options: { orders: number; customers?: number; lean?: boolean; tasks: number; iterations?: number; writer?: "set-status" | "set-status-jsonata" },
): ScaledRecipe & { bytes: number } {
  mkdirSync(dir, { recursive: true });
  const customers = options.customers ?? options.orders;
  const bytes = writeWorld(dir, options.orders, customers, options.lean === true);
  writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools: TOOLS }));
  writeFileSync(join(dir, "handlers.ts"), HANDLERS);
  const manifest = join(dir, "fakes.yaml");
  writeFileSync(manifest, MANIFEST);
  const evals = join(dir, "evals.yaml");
  let yaml = `version: 1\nfakes: fakes.yaml\ncases:\n`;
  for (let i = 0; i < options.tasks; i++) yaml += taskYaml(i, options.orders, customers, options.iterations ?? 1, options.writer ?? "set-status");
  writeFileSync(evals, yaml);
  return { manifest, evals, bytes };
}
