import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  applyEntityPatch,
  canonicalJson,
  entityPatches,
  isCommitted,
  isLayered,
  layerChanges,
  maxChanges,
  sameJson,
  worldHash,
} from "../../engine/core/record/index.js";
import { type States, StateStore } from "../../engine/serve/runtime/index.js";
import { type Rec, random, record } from "../support/random-records.js";

/** `orders` keyed by id (some keys array indices, which a plain object orders first), `list` an array, `meta` a value. */
function world(size: number): States {
  const orders: Record<string, Rec> = {};
  for (let i = 0; i < size; i++) orders[i % 7 === 3 ? String(i) : `o-${i}`] = record(`o-${i}`, i);
  return { shop: { orders, list: Array.from({ length: 4 }, (_, i) => record(`l-${i}`, i)), meta: { count: 0 } } };
}

class Broke extends Error {}

/** A handler's writes, the same on either store: every kind of change a handler makes to an object keyed by id. */
function mutate(next: () => number, state: Record<string, unknown>) {
  const orders = state.orders as Record<string, Rec>;
  const list = state.list as Rec[];
  const pick = () => {
    const ids = Object.keys(orders);
    return ids[Math.floor(next() * ids.length)];
  };
  const fresh = () => (next() < 0.3 ? String(40 + Math.floor(next() * 60)) : `new-${Math.floor(next() * 120)}`);
  for (let n = Math.floor(next() * 4) + 1; n > 0; n--) {
    const r = next();
    const id = pick();
    if (!id || r < 0.1) orders[fresh()] = record("new", 0);
    else if (r < 0.25) orders[id].v = (orders[id].v + 1) % 3;
    else if (r < 0.32) orders[id].tags.push("c");
    else if (r < 0.38) delete orders[id].note;
    else if (r < 0.46) delete orders[id];
    else if (r < 0.52) {
      // Removed and added again: a plain object moves the key to the end.
      const kept = orders[id];
      delete orders[id];
      orders[id] = kept;
    } else if (r < 0.58) orders[id] = { ...orders[id], v: 9 };
    else if (r < 0.64) orders[id] = orders[pick() ?? id];
    else if (r < 0.7) list.push(orders[id]);
    else if (r < 0.76) orders[fresh()] = list[Math.floor(next() * list.length)];
    else if (r < 0.8) orders[id].note = { text: String(Object.keys(orders).length) };
    else if (r < 0.84) (state.meta as { count: number }).count = Object.keys(orders).indexOf(id);
    // biome-ignore lint/correctness/noSelfAssign: a handler assigning a record its own value changes nothing, in either store
    else if (r < 0.88) orders[id] = orders[id];
    else if (r < 0.92) void JSON.stringify(orders);
    else if (r < 0.96) (state.meta as { seen?: number }).seen = Object.entries(orders).filter(([, o]) => o.v === 1).length;
    else if (r < 0.98) throw new Broke();
    else orders[id] = record(id, Math.floor(next() * 3));
  }
}

/** One call on `store`: the writes drafted, committed unless the handler threw; the commit, or undefined. */
function write(store: StateStore, next: () => number) {
  const draft = store.draft("shop", ["orders", "list", "meta"]);
  try {
    mutate(next, draft.state);
  } catch (error) {
    if (error instanceof Broke) return undefined;
    throw error;
  }
  const answer = draft.detach({ orders: draft.state.orders, first: (draft.state.list as Rec[])[0] });
  const changes = draft.changes();
  return { answer: JSON.stringify(answer), commit: changes ? store.commit("shop", changes) : undefined };
}

describe("an entity keyed by id laid over rather than copied", () => {
  it("holds, answers and records what a copied entity does, byte for byte, over random commits", () => {
    let layered = 0;
    let flattened = 0;
    for (let seed = 1; seed <= 25; seed++) {
      const plain = new StateStore(world(30));
      const laid = new StateStore(world(30), undefined, false, { layeredMinKeys: 1 });
      for (let step = 0; step < 70; step++) {
        const seedOf = Math.floor(random(seed * 1000 + step)() * 1e6);
        const before = laid.states.shop.orders;
        const want = write(plain, random(seedOf));
        const got = write(laid, random(seedOf));
        expect(got?.answer).toBe(want?.answer);
        expect(JSON.stringify(laid.states)).toBe(JSON.stringify(plain.states));
        expect(Object.keys(laid.states.shop.orders as object)).toEqual(Object.keys(plain.states.shop.orders as object));
        expect(worldHash(laid.states).hash).toBe(worldHash(plain.states).hash);
        const after = laid.states.shop.orders as Record<string, unknown>;
        if (isLayered(after)) layered++;
        else if (after !== before && step > 0) flattened++;
        const commit = got?.commit;
        if (!commit) {
          expect(after).toBe(before);
          continue;
        }
        // The record's patch, made from the changed keys alone, turns the world before into the one
        // after (as JSON values: a JSON Patch does not say where a key stands).
        const patches = entityPatches(commit.before, commit.after, commit.keys) ?? {};
        const rebuilt = patches.orders ? applyEntityPatch(before, patches.orders) : before;
        expect(canonicalJson(rebuilt)).toBe(canonicalJson(after));
        expect(sameJson(rebuilt, after)).toBe(true);
        // Every key the commit did not name is the same object as before it.
        const changed = new Set(commit.keys?.orders ?? []);
        if (commit.keys?.orders)
          for (const key of Object.keys(before as object)) if (!changed.has(key)) expect(after[key]).toBe((before as Record<string, unknown>)[key]);
        expect(isCommitted(after)).toBe(true);
      }
    }
    expect(layered).toBeGreaterThan(800);
    // Past `maxChanges` keys since its base, a layer is copied out into a plain object again.
    expect(flattened).toBeGreaterThan(3);
  });

  it("reads as a frozen plain object and refuses every change", () => {
    const store = new StateStore(world(10), undefined, false, { layeredMinKeys: 1 });
    const draft = store.draft("shop", ["orders"]);
    (draft.state.orders as Record<string, Rec>)["o-1"].v = 7;
    store.commit("shop", draft.changes()!);
    const orders = store.states.shop.orders as Record<string, Rec>;
    expect(isLayered(orders)).toBe(true);
    expect(orders["o-1"].v).toBe(7);
    expect(Object.isFrozen(orders["o-1"])).toBe(true);
    // biome-ignore lint/suspicious/noPrototypeBuiltins: what a handler may call on a plain object must work on a layer
    expect("o-1" in orders && Object.hasOwn(orders, "o-2") && orders.hasOwnProperty("3")).toBe(true);
    expect("o-99" in orders || Object.hasOwn(orders, "toString")).toBe(false);
    expect(String(orders)).toBe("[object Object]");
    expect(Object.getPrototypeOf(orders)).toBe(Object.prototype);
    const keys: string[] = [];
    for (const key in orders) keys.push(key);
    expect(keys).toEqual(Object.keys(orders));
    expect(Object.entries(orders).length).toBe(10);
    expect(() => {
      orders["o-1"] = record("x", 0);
    }).toThrow(TypeError);
    expect(() => delete orders["o-2"]).toThrow(TypeError);
    expect(() => Object.defineProperty(orders, "x", { value: 1 })).toThrow(TypeError);
    expect(() => Object.freeze(orders)).toThrow(TypeError);
    expect(() => {
      orders["o-1"].v = 0;
    }).toThrow(TypeError);
    // What a handler's console.log shows: the records, not the Proxy's empty target.
    expect(inspect(orders)).toContain("'o-1': { id: 'o-1', v: 7");
  });

  it("shows a handler's console.log of its draft the records as the draft holds them", () => {
    const store = new StateStore(world(10), undefined, false, { layeredMinKeys: 1 });
    const draft = store.draft("shop", ["orders"]);
    const orders = draft.state.orders as Record<string, Rec>;
    orders["o-1"].v = 7;
    delete orders["o-2"];
    const shown = inspect(orders);
    expect(shown).toContain("'o-1': { id: 'o-1', v: 7");
    expect(shown).not.toContain("'o-2'");
    draft.changes();
    expect(inspect(orders)).toBe("[finished draft]");
  });

  it("changes nothing when the handler throws after writing", () => {
    const store = new StateStore(world(10), undefined, false, { layeredMinKeys: 1 });
    const before = store.states.shop.orders;
    const draft = store.draft("shop", ["orders"]);
    (draft.state.orders as Record<string, Rec>)["o-1"].v = 7;
    delete (draft.state.orders as Record<string, Rec>)["o-2"];
    expect(store.states.shop.orders).toBe(before);
    expect((before as Record<string, Rec>)["o-1"].v).toBe(1);
    expect(Object.keys(before as object)).toHaveLength(10);
  });

  it("fails a call that puts the whole entity inside another value, and keeps one that assigns it to itself", () => {
    const store = new StateStore(world(10), undefined, false, { layeredMinKeys: 1 });
    const before = store.states.shop.orders;
    const draft = store.draft("shop", ["orders", "meta"]);
    (draft.state.orders as Record<string, Rec>)["o-1"].v = 7;
    (draft.state.meta as Record<string, unknown>).all = draft.state.orders;
    expect(() => draft.changes()).toThrow(/the entity orders \(too large to copy\) was put inside another value/);
    expect(store.states.shop.orders).toBe(before);
    const again = store.draft("shop", ["orders"]);
    (again.state.orders as Record<string, Rec>)["o-1"].v = 7;
    // biome-ignore lint/correctness/noSelfAssign: assigning an entity its own draft changes nothing
    again.state.orders = again.state.orders;
    store.commit("shop", again.changes()!);
    expect((store.states.shop.orders as Record<string, Rec>)["o-1"].v).toBe(7);
    expect(isLayered(store.states.shop.orders)).toBe(true);
  });

  it("writes one record of 100,000 without copying the others, and lays the next write over the same base", () => {
    const orders: Record<string, Rec> = {};
    for (let i = 0; i < 100_000; i++) orders[`o-${i}`] = record(`o-${i}`, 0);
    const store = new StateStore({ shop: { orders } });
    const start = store.states.shop.orders as Record<string, Rec>;
    for (const id of ["o-7", "o-70000"]) {
      const draft = store.draft("shop", ["orders"]);
      (draft.state.orders as Record<string, Rec>)[id].v = 1;
      const commit = store.commit("shop", draft.changes()!);
      expect(commit.keys).toEqual({ orders: [id] });
    }
    const after = store.states.shop.orders as Record<string, Rec>;
    expect([...layerChanges(after)!.keys()]).toEqual(["o-7", "o-70000"]);
    expect(after["o-8"]).toBe(start["o-8"]);
    expect(after["o-7"].v + after["o-70000"].v).toBe(2);
    expect(Object.keys(after)).toHaveLength(100_000);
    expect(maxChanges(100_000)).toBeLessThan(2_000);
  });
});
