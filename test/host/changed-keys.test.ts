import { describe, expect, it } from "vitest";
import { applyEntityPatch, type EntityPatch, entityPatches, type JsonPatchOperation, sameJson } from "../../engine/entries/verify.js";
import { recordedChanges } from "../../engine/serve/host/record-changes.js";
import { type CompiledSchema, createSchemaCompiler } from "../../engine/author/contract/index.js";
import { type Commit, StateStore, stateProblem } from "../../engine/serve/runtime/index.js";
import { type Rec, random, record } from "../support/random-records.js";

/** A world of one fake: `orders` keyed by id, `list` an array of records, `meta` a plain value. */
function world(size: number) {
  const orders: Record<string, Rec> = {};
  for (let i = 0; i < size; i++) orders[`o-${i}`] = record(`o-${i}`, i);
  return { shop: { orders, list: Array.from({ length: 8 }, (_, i) => record(`l-${i}`, i)), meta: { count: 0 } } };
}

/** A TypeScript handler's kinds of writes, on a draft: change, nest, add, delete, replace, no-op. */
function mutate(next: () => number, state: Record<string, unknown>) {
  const orders = state.orders as Record<string, Rec>;
  const ids = Object.keys(orders);
  const pick = () => ids[Math.floor(next() * ids.length)];
  for (let n = Math.floor(next() * 4) + 1; n > 0; n--) {
    const r = next();
    const id = pick();
    if (r < 0.2 && id) orders[id].v += 1;
    else if (r < 0.3 && id) orders[id].tags.push("c");
    else if (r < 0.4 && id) delete orders[id].note;
    else if (r < 0.5) orders[`new-${Math.floor(next() * 1e6)}`] = record("new", 0);
    else if (r < 0.6 && id) delete orders[id];
    else if (r < 0.65 && id) orders[id] = { ...orders[id] };
    else if (r < 0.7 && id) {
      // Set to the value it holds: a write that changes nothing.
      const same = orders[id].v;
      orders[id].v = same;
    } else if (r < 0.8) (state.list as Rec[])[Math.floor(next() * 3)].v += 1;
    else if (r < 0.85) (state.list as Rec[]).push(record(`l-${Math.floor(next() * 1e6)}`, 1));
    else if (r < 0.9) (state.meta as { count: number }).count++;
    else if (r < 0.95 && id) orders[id].note = { text: "x" };
    else if (id) orders[id] = { ...orders[id], v: -1 };
  }
}

/** Operations grouped by the top-level key they go through, each group in its own order. */
function byTopKey(patch: EntityPatch | undefined): unknown {
  if (!Array.isArray(patch)) return patch;
  const top = (op: JsonPatchOperation) => op.path.split("/")[1] ?? "";
  return [...patch].sort((a, b) => (top(a) < top(b) ? -1 : top(a) > top(b) ? 1 : 0));
}

/** The record's patch made from the commit's keys, checked against the walk of every key. */
function expectSameAsWalking(commit: Commit) {
  const keyed = recordedChanges(commit).changes ?? {};
  const walked = entityPatches(commit.before, commit.after) ?? {};
  expect(Object.keys(keyed).sort()).toEqual(Object.keys(walked).sort());
  for (const name of Object.keys(walked)) {
    expect(byTopKey(keyed[name])).toEqual(byTopKey(walked[name]));
    expect(sameJson(applyEntityPatch(commit.before[name], keyed[name]), commit.after[name])).toBe(true);
  }
}

describe("a commit carries the keys its write changed", () => {
  it("makes the same record patch as walking every key, over many random commits", () => {
    const next = random(11);
    const store = new StateStore(world(200), undefined, false, { maxBytes: 1e9 });
    let keyed = 0;
    for (let i = 0; i < 400; i++) {
      const draft = store.draft("shop", ["orders", "list", "meta"]);
      mutate(next, draft.state);
      // Now and then the entity is replaced whole by a copy: its keys are unknown, so every step walks.
      if (i % 7 === 3) draft.state.orders = { ...(draft.state.orders as Record<string, Rec>) };
      const changes = draft.changes();
      if (!changes) continue;
      // Measured before the commit (as a call does) or by the commit itself.
      if (i % 2 === 0) expect(store.overLimit("shop", changes)).toBeUndefined();
      const commit = store.commit("shop", changes);
      // The world's size, kept from the changed keys, is its JSON's size.
      expect(store.size).toBe(Object.values(store.states.shop).reduce((sum: number, v) => sum + Buffer.byteLength(JSON.stringify(v)), 0));
      if (commit.keys?.orders) keyed++;
      expectSameAsWalking(commit);
      // Every record outside the keys is the same object it was before the commit.
      const before = commit.before.orders as Record<string, Rec>;
      const after = commit.after.orders as Record<string, Rec>;
      const keys = new Set(commit.keys?.orders ?? []);
      if (commit.keys?.orders) for (const id of Object.keys(before)) if (!keys.has(id)) expect(after[id]).toBe(before[id]);
      expect(Object.isFrozen(after) && Object.values(after).every((r) => Object.isFrozen(r) && Object.isFrozen(r.tags))).toBe(true);
    }
    // The keyed path was taken, not only the walk it falls back to.
    expect(keyed).toBeGreaterThan(250);
  });

  it("names no keys for an array of records or an entity replaced whole, and the walk makes their patch", () => {
    const store = new StateStore(world(5));
    const draft = store.draft("shop", ["orders", "list"]);
    (draft.state.list as Rec[])[1].v = 99;
    draft.state.orders = { only: record("only", 1) };
    const commit = store.commit("shop", draft.changes()!);
    expect(commit.keys).toBeUndefined();
    expectSameAsWalking(commit);
    expect(recordedChanges(commit).changes?.list).toEqual({ key: "id", updated: [{ ...record("l-1", 1), v: 99 }] });
  });

  it("keeps a draft that was never committed out of the next commit's keys", () => {
    const store = new StateStore(world(5));
    // A call that failed: its draft changed o-1 and was dropped; the world is unchanged.
    const failed = store.draft("shop", ["orders"]);
    (failed.state.orders as Record<string, Rec>)["o-1"].v = 50;
    const dropped = failed.changes()!;
    expect((store.states.shop.orders as Record<string, Rec>)["o-1"].v).toBe(1);
    const draft = store.draft("shop", ["orders"]);
    (draft.state.orders as Record<string, Rec>)["o-2"].v = 60;
    const commit = store.commit("shop", draft.changes()!);
    expect(commit.keys).toEqual({ orders: ["o-2"] });
    expectSameAsWalking(commit);
    // The dropped value was made from the world before this commit, so it carries no keys now.
    const late = store.stage("shop", dropped);
    expect(late.keys).toBeUndefined();
  });
});

describe("checking a write by its changed keys", () => {
  it("refuses what JSON cannot carry in a changed record with the same words as a walk of the entity", () => {
    const store = new StateStore(world(50));
    const draft = store.draft("shop", ["orders"]);
    const orders = draft.state.orders as Record<string, Rec>;
    orders["o-3"].v = 5;
    orders["o-7"].v = Number.POSITIVE_INFINITY;
    const changes = draft.changes()!;
    const keyed = stateProblem(new Map(), "shop/edit", changes, store.states.shop);
    expect(keyed).toMatch(/orders\/o-7\/v must be a finite number/);
    expect(keyed).toBe(stateProblem(new Map(), "shop/edit", changes));
  });

  it("passes a write whose changed records are plain JSON", () => {
    const store = new StateStore(world(50));
    const draft = store.draft("shop", ["orders"]);
    (draft.state.orders as Record<string, Rec>)["o-3"].tags.push("z");
    expect(stateProblem(new Map(), "shop/edit", draft.changes()!, store.states.shop)).toBeUndefined();
  });
});

describe("an entity schema of one schema per record", () => {
  const compiler = createSchemaCompiler();
  const perRecord = compiler.compile({
    type: "object",
    description: "orders by id",
    additionalProperties: { type: "object", required: ["id"], properties: { v: { maximum: 100 } } },
  });
  /** The schema, with the values it was asked to validate kept. */
  const watched = (schema: CompiledSchema) => {
    const asked: unknown[] = [];
    return { asked, schema: { ...schema, validate: (value: unknown) => (asked.push(value), schema.validate(value)) } };
  };

  it("checks only the records a write changed, and words a failure as the whole check does", () => {
    expect(perRecord.recordMap).toBe(true);
    const store = new StateStore(world(50));
    const draft = store.draft("shop", ["orders"]);
    (draft.state.orders as Record<string, Rec>)["o-3"].v = 5;
    const { asked, schema } = watched(perRecord);
    expect(stateProblem(new Map([["orders", schema]]), "shop/edit", draft.changes()!, store.states.shop)).toBeUndefined();
    expect(asked.map((value) => Object.keys(value as object))).toEqual([["o-3"]]);

    const wrong = store.draft("shop", ["orders"]);
    (wrong.state.orders as Record<string, Rec>)["o-7"].v = 500;
    const changes = wrong.changes()!;
    const problem = stateProblem(new Map([["orders", perRecord]]), "shop/edit", changes, store.states.shop);
    expect(problem).toMatch(/would leave orders outside its schema: data\/o-7\/v must be <= 100; nothing was changed$/);
    expect(problem).toBe(stateProblem(new Map([["orders", perRecord]]), "shop/edit", changes));
  });

  it("checks the whole entity when its schema says more than one schema per record", () => {
    const bounded = compiler.compile({ type: "object", maxProperties: 50, additionalProperties: { type: "object" } });
    expect(bounded.recordMap).toBe(false);
    const store = new StateStore(world(50));
    const draft = store.draft("shop", ["orders"]);
    (draft.state.orders as Record<string, Rec>)["o-new"] = record("o-new", 1);
    const { asked, schema } = watched(bounded);
    expect(stateProblem(new Map([["orders", schema]]), "shop/edit", draft.changes()!, store.states.shop)).toMatch(/must NOT have more than 50 properties/);
    expect(asked.map((value) => Object.keys(value as object).length)).toEqual([51]);
  });
});

describe("applying a patch of many operations", () => {
  it("copies a large object once and leaves the value before it untouched", () => {
    const before = Object.freeze(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, Object.freeze({ v: i })])));
    const ops: JsonPatchOperation[] = [
      { op: "remove", path: "/k1" },
      { op: "replace", path: "/k2/v", value: 20 },
      { op: "add", path: "/k60", value: { v: 60 } },
      { op: "add", path: "/k60/w", value: 1 },
    ];
    const op60 = ops[2] as { value: object };
    const after = applyEntityPatch(before, ops) as Record<string, { v: number; w?: number }>;
    expect(before.k1).toEqual({ v: 1 });
    expect(before.k2).toEqual({ v: 2 });
    expect(after.k1).toBeUndefined();
    expect(after.k2).toEqual({ v: 20 });
    expect(after.k60).toEqual({ v: 60, w: 1 });
    // An operation's own value is not changed by a later operation: it is copied first.
    expect(op60.value).toEqual({ v: 60 });
    expect(after.k3).toBe(before.k3);
  });
});
