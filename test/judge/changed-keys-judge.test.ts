import { describe, expect, it } from "vitest";
import { canonicalJson, derivedKeys, MAX_DERIVED_KEYS, noteDerived, sameJson } from "../../engine/core/record/index.js";
import type { JudgedCall } from "../../engine/judge/evals/fake-maps.js";
import { rebuildHistory } from "../../engine/judge/evals/index.js";
import { recordedChanges } from "../../engine/serve/host/record-changes.js";
import { type States, StateStore } from "../../engine/serve/runtime/index.js";
import { type Rec, random, record } from "../support/random-records.js";

/** One fake: `orders` keyed by id, `list` an array of records, `meta` a plain value. */
function world(size: number): States {
  const orders: Record<string, Rec> = {};
  for (let i = 0; i < size; i++) orders[`o-${i}`] = record(`o-${i}`, i);
  return { shop: { orders, list: Array.from({ length: 4 }, (_, i) => record(`l-${i}`, i)), meta: { count: 0 } } };
}

/** A TypeScript handler's kinds of writes on a draft, few keys each: change, set back, nest, add, delete. */
function mutate(next: () => number, state: Record<string, unknown>) {
  const orders = state.orders as Record<string, Rec>;
  const pick = () => {
    const ids = Object.keys(orders).slice(0, 12);
    return ids[Math.floor(next() * ids.length)];
  };
  for (let n = Math.floor(next() * 3) + 1; n > 0; n--) {
    const r = next();
    const id = pick();
    if (!id) orders[`new-${Math.floor(next() * 5)}`] = record("new", 0);
    else if (r < 0.25) orders[id].v = (orders[id].v + 1) % 3;
    else if (r < 0.35) orders[id].tags.push("c");
    else if (r < 0.45) delete orders[id].note;
    else if (r < 0.55) orders[`new-${Math.floor(next() * 5)}`] = record("new", 0);
    else if (r < 0.65) delete orders[id];
    else if (r < 0.75) orders[id] = { ...orders[id] };
    else if (r < 0.85) (state.list as Rec[])[Math.floor(next() * 3)].v += 1;
    else if (r < 0.9) (state.meta as { count: number }).count++;
    else orders[id] = record(id, Math.floor(next() * 3));
  }
}

/** One write through the store as a call makes it: a draft (keys known) or, now and then, a whole new value (keys unknown). */
function write(store: StateStore, next: () => number) {
  if (next() < 0.04) {
    const orders = { ...(store.states.shop.orders as Record<string, Rec>), [`j-${Math.floor(next() * 3)}`]: record("j", 1) };
    return store.commit("shop", { orders });
  }
  const draft = store.draft("shop", ["orders", "list", "meta"]);
  mutate(next, draft.state);
  const changes = draft.changes();
  return changes ? store.commit("shop", changes) : undefined;
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

// Each random suite runs on entities copied on write and on entities laid over (layered-object.ts).
const stores = [
  ["copied", {}],
  ["laid over", { layeredMinKeys: 1 }],
] as const;

describe.each(stores)("comparing worlds by the keys their commits changed (%s)", (_, limits) => {
  it("gives the answer of comparing every key, over random commits on two worlds from one start", () => {
    let fast = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const first = new StateStore(world(40), undefined, false, limits);
      const second = new StateStore(first.initial, first.initial, true, limits);
      const start = first.initial.shop.orders;
      for (let step = 0; step < 25; step++) {
        // Half the steps make the same writes on both (equal values, new objects), half differ.
        const seedOf = Math.floor(random(seed * 100 + step)() * 1e6);
        const together = random(seedOf)() < 0.5;
        write(first, random(seedOf));
        write(second, random(together ? seedOf : seedOf + 1));
        const a = first.states.shop.orders;
        const b = second.states.shop.orders;
        expect(sameJson(a, b)).toBe(same(a, b));
        expect(sameJson(start, a)).toBe(same(start, a));
        expect(sameJson(b, start)).toBe(same(b, start));
        if (derivedKeys(a as object, b as object)) fast++;
      }
    }
    // The changed keys decided most comparisons, not only the walk they fall back to.
    expect(fast).toBeGreaterThan(250);
  });

  it("names only the changed record of a 100,000-record entity after one write", () => {
    const orders: Record<string, Rec> = {};
    for (let i = 0; i < 100_000; i++) orders[`o-${i}`] = record(`o-${i}`, 0);
    const store = new StateStore({ shop: { orders } });
    const draft = store.draft("shop", ["orders"]);
    (draft.state.orders as Record<string, Rec>)["o-7"].v = 1;
    store.commit("shop", draft.changes()!);
    expect(derivedKeys(store.initial.shop.orders as object, store.states.shop.orders as object)).toEqual(["o-7"]);
    expect(sameJson(store.initial.shop.orders, store.states.shop.orders)).toBe(false);
  });

  it("stops following a line of commits past its cap of changed keys", () => {
    const root = Object.freeze({ a: 1 });
    const many = Array.from({ length: MAX_DERIVED_KEYS + 1 }, (_, i) => `k${i}`);
    const after = Object.freeze({ a: 2 });
    noteDerived(after, root, many);
    expect(derivedKeys(root, after)).toBeUndefined();
    expect(sameJson(root, after)).toBe(false);
  });
});

/** A run's record lines as the judge reads them: one per commit, with its number and changes. */
function callsOf(commits: ReturnType<typeof write>[]): JudgedCall[] {
  return commits
    .filter((c) => c !== undefined)
    .map((commit, i) => ({
      number: i + 1,
      server: "shop",
      tool: "edit",
      args: {},
      failed: false,
      line: { server: "shop", tool: "edit", ...recordedChanges(commit) } as unknown as JudgedCall["line"],
    }));
}

/** The history as the full rebuild makes it: the final world copied, so no commit's note applies. */
const walked = (initial: States, final: States, calls: JudgedCall[]) => rebuildHistory(initial, JSON.parse(JSON.stringify(final)), calls);

function expectSameHistory(got: ReturnType<typeof rebuildHistory>, want: ReturnType<typeof rebuildHistory>) {
  expect(got.ok).toBe(want.ok);
  if (!got.ok || !want.ok) return expect(got).toEqual(want);
  expect(got.commits.length).toBe(want.commits.length);
  for (const [i, commit] of got.commits.entries()) {
    const { world, ...rest } = commit;
    const { world: theirs, ...others } = want.commits[i];
    expect(rest).toEqual(others);
    expect(same(world, theirs)).toBe(true);
  }
}

describe.each(stores)("the judge's history from the changed keys (%s)", (_, limits) => {
  it("decides as rebuilding every world does, over random runs, cut and tampered records", () => {
    let lazy = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const store = new StateStore(world(30), undefined, false, limits);
      const commits = Array.from({ length: 1 + Math.floor(next() * 12) }, () => write(store, next));
      const calls = callsOf(commits);
      const initial = store.initial;
      const final = store.states;
      const history = rebuildHistory(initial, final, calls);
      expectSameHistory(history, walked(initial, final, calls));
      if (history.ok && history.commits.length > 0 && Object.getOwnPropertyDescriptor(history.commits[0], "world")?.get) lazy++;
      // A record cut short, one line lost, or a patch changed: the same verdict and the same words.
      const cut = calls.slice(0, -1);
      expectSameHistory(rebuildHistory(initial, final, cut), walked(initial, final, cut));
      if (calls.length > 2) {
        const lost = calls.filter((_, i) => i !== 1);
        expectSameHistory(rebuildHistory(initial, final, lost), walked(initial, final, lost));
      }
      const tampered = calls.map((call, i) =>
        i === 0 ? { ...call, line: { ...call.line, changes: { orders: [{ op: "add", path: "/o-3/v", value: 99 }] } } as unknown as JudgedCall["line"] } : call,
      );
      expectSameHistory(rebuildHistory(initial, final, tampered), walked(initial, final, tampered));
    }
    // Runs that wrote no array of records were checked from the keys, their worlds left to be rebuilt when read.
    expect(lazy).toBeGreaterThan(6);
  });

  it("rebuilds a commit's world when it is read, equal to the world after that commit", () => {
    const store = new StateStore(world(10), undefined, false, limits);
    const next = random(5);
    const worlds: unknown[] = [];
    const commits = Array.from({ length: 6 }, () => {
      const commit = write(store, next);
      if (commit) worlds.push(JSON.parse(JSON.stringify(store.states)));
      return commit;
    });
    const history = rebuildHistory(store.initial, store.states, callsOf(commits));
    expect(history.ok).toBe(true);
    if (!history.ok) return;
    expect(history.commits.map((c) => same(c.world, worlds[c.number - 1]))).toEqual(history.commits.map(() => true));
  });
});
