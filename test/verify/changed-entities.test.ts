import { describe, expect, it } from "vitest";
import { changedEntities, valueHash, type WriteMaps } from "../../engine/entries/verify.js";

const manifests: WriteMaps = {
  crm: {
    id: "crm",
    kind: "mcp",
    entities: ["deals", "notes", "settings"],
    tools: {
      "list-deals": { kind: "stateful", reads: ["deals"], writes: [] },
      "update-deal": { kind: "stateful", reads: ["deals"], writes: ["deals"] },
      "create-note": { kind: "stateful", reads: [], writes: ["notes"] },
    },
  },
};

const world = (deals: unknown, notes: unknown = [], settings: unknown = { flag: true }) => ({ crm: { deals, notes, settings } });

describe("changedEntities", () => {
  it("tells false from 0, as JSON values differ", () => {
    const states = { initial: world([{ id: "d1", won: false }]), final: world([{ id: "d1", won: 0 }]) };
    expect(changedEntities(states, manifests)).toEqual(["crm.deals"]);
  });

  it("ignores key order and compares nested values deeply", () => {
    const states = {
      initial: world([{ id: "d1", stage: "lead", meta: { a: 1, b: [1, { c: 2 }] } }]),
      final: world([{ meta: { b: [1, { c: 2 }], a: 1 }, stage: "lead", id: "d1" }]),
    };
    expect(changedEntities(states, manifests)).toEqual([]);
  });

  it("sees a deep change and a changed array order", () => {
    const deep = { initial: world([{ id: "d1", meta: { b: [1, { c: 2 }] } }]), final: world([{ id: "d1", meta: { b: [1, { c: 3 }] } }]) };
    expect(changedEntities(deep, manifests)).toEqual(["crm.deals"]);
    const order = { initial: world([{ id: "d1" }, { id: "d2" }]), final: world([{ id: "d2" }, { id: "d1" }]) };
    expect(changedEntities(order, manifests)).toEqual(["crm.deals"]);
  });

  it("sees a change under a __proto__ key, which JSON.parse keeps as an own key", () => {
    const states = { initial: world([], [], JSON.parse('{"flag":true}')), final: world([], [], JSON.parse('{"flag":true,"__proto__":{"admin":true}}')) };
    const settings: WriteMaps = {
      crm: { id: "crm", kind: "mcp", entities: ["settings"], tools: { "set-flag": { kind: "stateful", reads: [], writes: ["settings"] } } },
    };
    expect(changedEntities(states, settings)).toEqual(["crm.settings"]);
    expect(valueHash(JSON.parse('{"__proto__":1}'))).not.toBe(valueHash({}));
  });

  it("tells a missing entity from a present one, even a present null", () => {
    const states = { initial: { crm: { notes: [], settings: {} } }, final: { crm: { deals: null, notes: [], settings: {} } } };
    expect(changedEntities(states, manifests)).toEqual(["crm.deals"]);
  });

  it("reports only entities some tool writes, sorted as <id>.<entity>", () => {
    const states = {
      initial: world([{ id: "d1" }], [], { flag: true }),
      final: world([{ id: "d2" }], [{ id: "n1" }], { flag: false }),
    };
    expect(changedEntities(states, manifests)).toEqual(["crm.deals", "crm.notes"]);
  });

  it("does not see a change undone within the run: only the run's two ends are compared", () => {
    // A deal moved to "won" and back to "lead" leaves equal ends; only a fake that records each
    // transition in an entity of its own would show it.
    const states = { initial: world([{ id: "d1", stage: "lead" }]), final: world([{ id: "d1", stage: "lead" }]) };
    expect(changedEntities(states, manifests)).toEqual([]);
  });

  it("throws on an empty set of manifests rather than report nothing", () => {
    expect(() => changedEntities({ initial: {}, final: {} }, {})).toThrow(/\[eval-simulate\] changedEntities needs at least one fake's manifest/);
  });

  it("throws when the states hold no state for a fake it checks", () => {
    expect(() => changedEntities({ initial: world([]), final: {} }, manifests)).toThrow(/the final states hold no state for "crm"/);
  });
});
