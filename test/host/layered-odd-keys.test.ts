import { describe, expect, it } from "vitest";
import { isLayered, worldHash } from "../../engine/core/record/index.js";
import { type States, StateStore, stateProblem } from "../../engine/serve/runtime/index.js";

type Body = (state: Record<string, unknown>) => unknown;

/**
 * One call of `body` on `store` writing `orders` and `meta`: its answer as JSON (or that it threw:
 * the wording may differ), or the problem that keeps its changes from committing; else committed.
 */
function call(store: StateStore, body: Body): string {
  const draft = store.draft("shop", ["orders", "meta", "archive"]);
  try {
    const answer = JSON.stringify(draft.detach(body(draft.state)) ?? null);
    const changes = draft.changes();
    const problem = changes && stateProblem(new Map(), "shop/write", changes, store.states.shop);
    if (problem) return problem;
    if (changes) store.commit("shop", changes);
    return answer;
  } catch {
    return "threw";
  }
}

/**
 * Runs the calls on a store that lays `orders` over (from one key) and on one that copies it,
 * and expects the same answers, worlds (as JSON, key order included) and hashes.
 */
function expectSame(world: () => States, calls: Body[]): StateStore {
  const laid = new StateStore(world(), undefined, false, { layeredMinKeys: 1 });
  const copied = new StateStore(world());
  for (const body of calls) {
    expect(call(laid, body)).toBe(call(copied, body));
    expect(JSON.stringify(laid.states)).toBe(JSON.stringify(copied.states));
    expect(Object.keys(laid.states.shop.orders as object)).toEqual(Object.keys(copied.states.shop.orders as object));
    expect(worldHash(laid.states).hash).toBe(worldHash(copied.states).hash);
  }
  return laid;
}

type Rec = { id: string; v: number };
const orders = (state: Record<string, unknown>) => state.orders as Record<string, Rec>;
/** A key a plain object's assignment treats as its prototype, held in a name so it is read as a key. */
const PROTO = "__proto__";

describe("an entity laid over, with keys a plain object treats specially", () => {
  it("reads, changes and removes a record keyed __proto__ as a copied entity does", () => {
    // JSON.parse makes `__proto__` an own key, as a world read from a file or a state file holds it.
    const world = () => ({ shop: { orders: JSON.parse('{"__proto__":{"id":"p","v":0},"a":{"id":"a","v":1}}'), meta: {} } });
    const laid = expectSame(world, [
      (state) => {
        orders(state).a.v = 2;
        return orders(state)[PROTO];
      },
      (state) => {
        orders(state)[PROTO].v = 7;
        return Object.keys(orders(state));
      },
      (state) => [Object.hasOwn(orders(state), PROTO), orders(state)[PROTO].v],
      (state) => {
        delete orders(state)[PROTO];
        return Object.keys(orders(state));
      },
    ]);
    expect(isLayered(laid.states.shop.orders)).toBe(true);
  });

  it("fails a call that adds a record keyed __proto__, as a copied entity's draft does", () => {
    const world = () => ({ shop: { orders: { a: { id: "a", v: 1 } }, meta: {} } });
    const laid = expectSame(world, [
      (state) => {
        orders(state).a.v = 2;
        return Object.keys(orders(state));
      },
      (state) => {
        orders(state).a.v = 3;
        orders(state)[PROTO] = { id: "p", v: 0 };
        return Object.keys(orders(state));
      },
    ]);
    expect(Object.keys(laid.states.shop.orders as object)).toEqual(["a"]);
    expect(call(laid, (state) => void (orders(state)[PROTO] = { id: "p", v: 0 }))).toBe("threw");
  });
});

describe("an entity laid over, replaced and given back", () => {
  it("keeps the draft's changes when the handler assigns the entity its draft again after replacing it", () => {
    const world = () => ({ shop: { orders: { a: { id: "a", v: 1 }, b: { id: "b", v: 2 } }, meta: {} } });
    expectSame(world, [
      (state) => {
        const draft = orders(state);
        draft.a.v = 2;
        state.orders = { c: { id: "c", v: 0 } };
        draft.b.v = 3;
        state.orders = draft;
        return Object.keys(orders(state));
      },
      (state) => Object.values(orders(state)).map((order) => order.v),
    ]);
  });
});

describe("a large entity's draft assigned to another entity", () => {
  const world = () => ({
    shop: { orders: { a: { id: "a", v: 1 }, b: { id: "b", v: 2 } }, archive: { z: { id: "z", v: 0 } }, meta: {} as Record<string, unknown> },
  });
  it("moves the entity, changes and all, as assigning an immer draft does", () => {
    const laid = expectSame(world, [
      (state) => {
        orders(state).a.v = 5;
        state.archive = state.orders;
        (state.archive as Record<string, Rec>).b.v = 6;
        return [Object.keys(state.archive as object), orders(state).b.v];
      },
      (state) => {
        // Swapped: each stands for the other's draft.
        const kept = state.orders;
        state.orders = state.archive;
        state.archive = kept;
        orders(state).c = { id: "c", v: 3 };
        return Object.keys(orders(state));
      },
      (state) => {
        state.meta = state.orders;
        state.orders = { fresh: { id: "fresh", v: 0 } };
        return Object.keys(state.meta as object);
      },
    ]);
    expect(Object.keys(laid.states.shop.meta as object)).toEqual(["a", "b", "c"]);
  });

  it("still refuses what JSON cannot carry in the entity it moved to", () => {
    const laid = expectSame(world, [
      (state) => {
        orders(state).a.v = Number.NaN;
        state.meta = state.orders;
        state.orders = {};
        return 1;
      },
    ]);
    expect(call(laid, (state) => void ((state.meta = state.orders), (orders(state).a.v = Number.POSITIVE_INFINITY), (state.orders = {})))).toMatch(
      /would leave meta holding what JSON cannot carry: meta\/a\/v must be a finite number, not Infinity/,
    );
  });
});
