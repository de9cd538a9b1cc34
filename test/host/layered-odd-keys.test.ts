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

  it("fails a call that assigns a record keyed __proto__ it holds, as a copied entity's draft does", () => {
    const world = () => ({ shop: { orders: JSON.parse('{"__proto__":{"id":"p","v":0},"a":{"id":"a","v":1}}'), meta: {} } });
    expectSame(world, [
      (state) => {
        orders(state).a.v = 2;
        return 1;
      },
      (state) => {
        orders(state).a.v = 3;
        orders(state)[PROTO] = { id: "p", v: 9 };
        return 1;
      },
      (state) => orders(state)[PROTO],
    ]);
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

describe("a large entity's draft moved after more changes than a layer holds", () => {
  it("still refuses what JSON cannot carry in the entity it moved to, once copied out", () => {
    const world = () => {
      const many: Record<string, Rec> = {};
      for (let i = 0; i < 40; i++) many[`r-${i}`] = { id: `r-${i}`, v: i };
      return { shop: { orders: many, archive: { z: { id: "z", v: 0 } }, meta: {} as Record<string, unknown> } };
    };
    // Past `maxChanges` (16 for a small base) the new value is a frozen plain object, not a layer.
    const laid = expectSame(world, [
      (state) => {
        for (let i = 0; i < 30; i++) orders(state)[`r-${i}`].v = -i;
        orders(state)["r-31"].v = Number.NaN;
        state.archive = state.orders;
        state.orders = {};
        return 1;
      },
    ]);
    expect(Object.keys(laid.states.shop.archive as object)).toEqual(["z"]);
  });
});

/** A small deterministic generator, so a failure reproduces. */
function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

type Row = { id: unknown; v: number; t: number[] };
const row = (id: unknown): Row => ({ id, v: 1, t: [] });

/** Two entities keyed by id (one holding a record keyed `__proto__`, some keys array indices) and a value. */
function twoEntities(): States {
  const o: Record<string, Row> = JSON.parse('{"__proto__":{"id":"p","v":0,"t":[]}}');
  for (let i = 0; i < 25; i++) o[i % 4 === 0 ? String(i) : `k${i}`] = { id: i, v: i % 3, t: [i] };
  const a: Record<string, Row> = {};
  for (let i = 0; i < 6; i++) a[`a${i}`] = { id: i, v: 0, t: [] };
  return { shop: { orders: o, archive: a, meta: { n: 0 } } };
}

/** A handler's random writes across both entities: records changed, moved, removed and added back, the entities swapped, replaced and given back. */
function shuffle(next: () => number, state: Record<string, unknown>): unknown {
  for (let n = Math.floor(next() * 5) + 1; n > 0; n--) {
    const name = next() < 0.7 ? "orders" : "archive";
    const entity = state[name] as Record<string, Row>;
    const ids = Object.keys(entity);
    const id = ids[Math.floor(next() * ids.length)];
    const r = next();
    if (!id || r < 0.08) entity[`n${Math.floor(next() * 40)}`] = row("n");
    else if (r < 0.2) entity[id].v = (entity[id].v + 1) % 4;
    else if (r < 0.26) entity[id].t.push(n);
    else if (r < 0.32) delete entity[id];
    else if (r < 0.38) {
      const kept = entity[id];
      delete entity[id];
      entity[id] = kept;
    } else if (r < 0.44) [state.orders, state.archive] = [state.archive, state.orders];
    else if (r < 0.48) {
      const kept = state.orders;
      state.orders = { x: row("x") };
      if (next() < 0.7) state.orders = kept;
    } else if (r < 0.52) (state.meta as { n: number }).n = Object.keys(state.orders as object).length;
    else if (r < 0.58) (state.archive as Record<string, Row>)[`m${Math.floor(next() * 20)}`] = (state.orders as Record<string, Row>)[id] ?? row(1);
    else if (r < 0.62) {
      const found = Object.values(entity).find((found) => found.v === 2);
      if (found) found.v = 3;
    } else if (r < 0.66) (state.meta as { s?: number }).s = JSON.stringify(state.orders).length;
    else if (r < 0.7) {
      if (Object.hasOwn(entity, PROTO)) entity[PROTO].v++;
    } else if (r < 0.73) throw new Error("the handler failed");
    else if (r < 0.78) entity[String(Math.floor(next() * 50))] = row("i");
    else if (r < 0.82) entity[id].v = Number.NaN;
    else entity[id] = row(id);
  }
  return { orders: state.orders, first: Object.values(state.archive as object)[0] };
}

describe("two entities laid over, written at random", () => {
  it("answer, hold and refuse what two copied entities do, over random calls", () => {
    let laidOver = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const laid = new StateStore(twoEntities(), undefined, false, { layeredMinKeys: 1 });
      const copied = new StateStore(twoEntities());
      for (let step = 0; step < 40; step++) {
        const seedOf = Math.floor(random(seed * 1000 + step)() * 1e6);
        // Which non-finite number a refusal names first may differ: that it refuses may not.
        const outcome = (store: StateStore) => call(store, (state) => shuffle(random(seedOf), state)).replace(/holding what JSON cannot carry.*/, "not JSON");
        expect(outcome(laid)).toBe(outcome(copied));
        expect(JSON.stringify(laid.states)).toBe(JSON.stringify(copied.states));
        expect(worldHash(laid.states).hash).toBe(worldHash(copied.states).hash);
        if (isLayered(laid.states.shop.orders)) laidOver++;
      }
    }
    expect(laidOver).toBeGreaterThan(500);
  });
});
