import { describe, expect, it } from "vitest";
import { StateStore } from "../../engine/serve/runtime/index.js";

describe("the draft of a call that writes nothing", () => {
  it("reads the committed values themselves and refuses every change", () => {
    const store = new StateStore({ notes: { counter: 7, notes: [{ id: "n1" }] } });
    const draft = store.draft("notes", []);
    expect(draft.state.counter).toBe(7);
    expect(draft.state.notes).toBe(store.states.notes.notes);
    expect(Object.keys(draft.state)).toEqual(["counter", "notes"]);
    expect(() => {
      draft.state.counter = 8;
    }).toThrow(TypeError);
    expect(() => {
      draft.state.added = 1;
    }).toThrow(TypeError);
    expect(() => delete draft.state.counter).toThrow(TypeError);
    expect(() => (draft.state.notes as Array<{ id: string }>).push({ id: "n2" })).toThrow(TypeError);
    const answer = { notes: draft.state.notes };
    expect(draft.detach(answer)).toBe(answer);
    expect(draft.changes()).toBeUndefined();
    expect(store.states.notes).toEqual({ counter: 7, notes: [{ id: "n1" }] });
  });

  it("sees a later commit in the next call's draft", () => {
    const store = new StateStore({ notes: { counter: 7 } });
    store.commit("notes", { counter: 8 });
    expect(store.draft("notes", []).state.counter).toBe(8);
  });
});
