import { describe, expect, it } from "vitest";
import { loadFakes } from "../../engine/author/fakes/index.js";
import { startingStates } from "../../engine/serve/host/index.js";
import { callTool, compileServer, type RuntimeScope, StateStore } from "../../engine/serve/runtime/index.js";
import { CLOCK } from "../support/services.js";

const FIXTURE = new URL("../fixtures/shared-records/fakes.yaml", import.meta.url).pathname;

type Order = { id: string; status: string; items: Array<{ sku: string; qty: number }> };

/** A store over the fixture's world, and a way to call its tools in-process. */
async function shop() {
  const loaded = await loadFakes(FIXTURE, { clock: CLOCK });
  const { states } = await startingStates(loaded.fakes, { world: loaded.world }, new Date(CLOCK));
  const store = new StateStore(states);
  const scope: RuntimeScope = { store, now: CLOCK, scenario: "quiet" };
  const server = compileServer((loaded.fakes.shop as { manifest: Parameters<typeof compileServer>[0] }).manifest);
  const call = (tool: string, args: Record<string, unknown>) => callTool(scope, server, tool, args, new AbortController().signal);
  const orders = () => store.states.shop.orders as Record<string, Order>;
  return { store, call, orders };
}

describe("a commit shares every record it did not change", () => {
  it("keeps the untouched records of a TypeScript write the same objects", async () => {
    const { store, call, orders } = await shop();
    const before = orders();
    const customers = store.states.shop.customers;
    const outcome = await call("ship", { id: "o-2" });
    expect(outcome.result.isError).toBeFalsy();
    const after = orders();
    expect(after).not.toBe(before);
    expect(after["o-2"]).not.toBe(before["o-2"]);
    expect(after["o-2"].status).toBe("shipped");
    expect(after["o-2"].items).toBe(before["o-2"].items);
    expect(after["o-1"]).toBe(before["o-1"]);
    expect(after["o-3"]).toBe(before["o-3"]);
    expect(store.states.shop.customers).toBe(customers);
    expect(Object.isFrozen(after) && Object.isFrozen(after["o-2"])).toBe(true);
    expect(before["o-2"].status).toBe("open");
  });

  it("copies only the path to a nested change", async () => {
    const { call, orders } = await shop();
    const before = orders();
    await call("add-item", { id: "o-1", sku: "z" });
    const after = orders();
    expect(after["o-1"].items).toEqual([
      { sku: "a", qty: 1 },
      { sku: "z", qty: 1 },
    ]);
    expect(after["o-1"].items[0]).toBe(before["o-1"].items[0]);
    expect(after["o-2"]).toBe(before["o-2"]);
    expect(Object.isFrozen(after["o-1"].items[1])).toBe(true);
  });

  it("keeps the untouched records of a JSONata write the same objects", async () => {
    const { call, orders } = await shop();
    const before = orders();
    await call("ship-jsonata", { id: "o-3" });
    expect(orders()["o-3"].status).toBe("shipped");
    expect(orders()["o-1"]).toBe(before["o-1"]);
  });

  it("answers and logs the record a handler changed after its draft is done", async () => {
    const { call } = await shop();
    const outcome = await call("ship", { id: "o-1" });
    expect(JSON.parse((outcome.result.content[0] as { text: string }).text)).toMatchObject({ id: "o-1", status: "shipped" });
    expect(outcome.logs).toEqual([{ id: "o-1", status: "shipped", items: [{ sku: "a", qty: 1 }] }]);
  });

  it("changes nothing, not even a copy, when the handler fails after writing", async () => {
    const { store, call, orders } = await shop();
    const before = orders();
    const outcome = await call("ship-then-break", { id: "o-1" });
    expect(outcome.result.isError).toBe(true);
    expect(outcome.committed).toBe(false);
    expect(orders()).toBe(before);
    expect(before["o-1"].status).toBe("open");
    expect(store.states.shop.orders).toBe(before);
  });

  it("shares a frozen world it starts from instead of copying it", async () => {
    const { store } = await shop();
    const second = new StateStore(store.initial);
    expect(second.states.shop.orders).toBe(store.initial.shop.orders);
    expect(second.states.shop).not.toBe(store.initial.shop);
  });

  it("still copies a world it starts from that is not frozen, and freezes the copy", () => {
    const states = { shop: { orders: { "o-1": { id: "o-1" } } } };
    const store = new StateStore(states);
    expect(store.states.shop.orders).not.toBe(states.shop.orders);
    expect(Object.isFrozen(store.states.shop.orders)).toBe(true);
    expect(Object.isFrozen(states.shop.orders)).toBe(false);
  });
});
