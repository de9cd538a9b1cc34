import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type LoadedFakes, loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { type EvalCase, judgeRun, type Verdict } from "../../engine/entries/judge.js";
import { ROOT } from "../support/examples.js";
import { CLOCK } from "../support/services.js";

type Order = { id: string; status: string; total: number };
type Orders = Record<string, Order>;

const MANIFEST = join(ROOT, "test/fixtures/keyed-orders/fakes.yaml");
const ORDERS: Orders = {
  "o-1": { id: "o-1", status: "pending", total: 10 },
  "o-2": { id: "o-2", status: "pending", total: 20 },
  "o-3": { id: "o-3", status: "shipped", total: 30 },
};
const world = (orders: Orders) => ({ shop: { orders } });
const shipped = (orders: Orders, id: string): Orders => ({ ...orders, [id]: { ...orders[id], status: "shipped" } });
const ship = (order_id: string, more: Record<string, unknown> = {}) => ({ tool: "shop/ship-order", arguments: { order_id }, ...more });

let fakes: LoadedFakes;
beforeAll(async () => {
  fakes = await loadFakes(MANIFEST, { clock: CLOCK });
});

const judge = (expect: EvalCase["expect"], final: Orders, initial: Orders = ORDERS): Promise<Verdict> =>
  judgeRun({ fakes, case: { id: "case", expect }, run: { initial: world(initial), final: world(final), calls: [] } });
const result = (verdict: Verdict, assertion: string) => verdict.results.find((r) => r.assertion.startsWith(assertion));

describe("records kept in an object keyed by id", () => {
  it("names the record and the field that differ from the golden world, not the first record of the map", async () => {
    const final = { ...shipped(ORDERS, "o-1"), "o-2": { ...ORDERS["o-2"], total: 25 } };
    const verdict = await judge({ golden: [ship("o-1")] }, final);
    expect(result(verdict, "golden")?.message).toBe(
      'the final world differs from the golden world: shop.orders: record "o-2": total is 25 in the run, 20 in the golden world',
    );
  });

  it("finds the one differing order of 1,000 and says how many more differ past the first ten", async () => {
    const many: Orders = {};
    for (let i = 0; i < 1000; i++) many[`o-${i}`] = { id: `o-${i}`, status: "pending", total: i };
    const one = await judge({ golden: [] }, { ...many, "o-777": { ...many["o-777"], status: "lost" } }, many);
    expect(result(one, "golden")?.message).toBe(
      'the final world differs from the golden world: shop.orders: record "o-777": status is "lost" in the run, "pending" in the golden world',
    );
    const twelve = { ...many };
    for (let i = 0; i < 12; i++) twelve[`o-${i}`] = { ...many[`o-${i}`], status: "lost" };
    const message = result(await judge({ golden: [] }, twelve, many), "golden")?.message ?? "";
    expect(message).toContain('record "o-9": status is "lost"');
    expect(message).not.toContain('record "o-10"');
    expect(message).toMatch(/; and 2 more records$/);
  });

  it("judges state.diff, state.unchanged and $diff on the object's records by key", async () => {
    const final = shipped(ORDERS, "o-1");
    const verdict = await judge(
      {
        state: {
          diff: { "shop.orders": { updated: [{ id: "o-1", status: "shipped" }], added: [], removed: [] } },
          assert: [{ name: "o-1 shipped", jsonata: '$diff.shop.orders.updated[0].key = "o-1" and $diff.shop.orders.keyedBy = "object"' }],
        },
      },
      final,
    );
    expect(verdict.results.map((r) => [r.assertion, r.status, r.message])).toEqual([
      ["state.diff shop.orders", "passed", 'shop.orders: updated "o-1" (status)'],
      ["state.assert[0] o-1 shipped", "passed", expect.any(String)],
    ]);
    const unchanged = await judge({ state: { unchanged: ["shop.orders"] } }, { ...final, "o-4": { id: "o-4", status: "new", total: 1 } });
    expect(result(unchanged, "state.unchanged")?.message).toBe('shop.orders changed (commits not recorded): added "o-4"; updated "o-1" (status)');
    const wrong = await judge({ state: { diff: { "shop.orders": { updated: [{ status: "cancelled" }] } } } }, final);
    expect(result(wrong, "state.diff")?.message).toBe(
      'shop.orders: expected a record updated matching status = "cancelled"; the nearest, record "o-1", has status = "shipped"; record "o-1" was updated unexpectedly',
    );
  });

  it("counts the entities state.diff names as expected to change under state.only", async () => {
    const verdict = await judge({ state: { only: true, diff: { "shop.orders": { updated: [{ id: "o-1" }] } } } }, shipped(ORDERS, "o-1"));
    expect(result(verdict, "state.only")).toMatchObject({ status: "passed", message: "only shop.orders changed" });
  });
});

describe("a golden path as benchmarks write them", () => {
  it("replays the reference's failed attempts, expecting an error, and carries on", async () => {
    const verdict = await judge({ golden: [ship("o-9"), ship("o-3", { error: "already shipped" }), ship("o-1")] }, shipped(ORDERS, "o-1"));
    expect(result(verdict, "golden")).toMatchObject({
      status: "passed",
      message: "the final world equals the golden world (1 entity compared by hash, 3 golden calls, 2 answering an error as the reference's did)",
    });
  });

  it("leaves the case not evaluated when a call goes otherwise than the reference recorded", async () => {
    const final = shipped(ORDERS, "o-1");
    const cases: Array<[Record<string, unknown>, string]> = [
      [ship("o-9", { result: { shipped: "o-9" } }), "golden call #1 shop/ship-order failed where the reference's call succeeded: Error: order o-9 not found"],
      [ship("o-9", { error: false }), "golden call #1 shop/ship-order failed where the reference's call succeeded: Error: order o-9 not found"],
      [ship("o-1", { error: true }), "golden call #1 shop/ship-order succeeded where the reference's call answered an error"],
      [
        ship("o-9", { error: "already shipped" }),
        'golden call #1 shop/ship-order answered another error than the reference\'s ("already shipped"): Error: order o-9 not found',
      ],
    ];
    for (const [call, why] of cases) {
      const verdict = await judge({ golden: { calls: [call as { tool: string }] } }, final);
      expect(result(verdict, "golden")).toMatchObject({ status: "not_evaluated", message: `the golden path cannot be replayed: ${why}` });
      expect(verdict.verdict).toBe("not_evaluated");
    }
  });

  it("allows a golden path of no calls: the world must end unchanged", async () => {
    expect(result(await judge({ golden: { calls: [] } }, ORDERS), "golden")).toMatchObject({
      status: "passed",
      message: "the final world equals the golden world (1 entity compared by hash, 0 golden calls)",
    });
    expect(result(await judge({ golden: [] }, shipped(ORDERS, "o-2")), "golden")).toMatchObject({
      status: "failed",
      message: 'the final world differs from the golden world: shop.orders: record "o-2": status is "shipped" in the run, "pending" in the golden world',
    });
  });
});
