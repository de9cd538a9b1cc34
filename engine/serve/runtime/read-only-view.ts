/**
 * The world as a handler sees the fakes it does not write: every read goes through to the
 * committed state, every change throws with a message that says what to change instead.
 */

type FakeState = Record<string, unknown>;

const refuse = (): never => {
  throw new TypeError("[eval-simulate] the world is read-only in a handler: change this fake's own `state` (the entities its tool writes)");
};

/**
 * A view of the states (fake id → entities) that reads through to them and refuses every
 * change, at both levels.
 *
 * @example readOnlyView(store.states).crm.contacts // the committed value; assigning to it throws
 */
export function readOnlyView(states: Record<string, FakeState>): Record<string, FakeState> {
  const traps = { set: refuse, defineProperty: refuse, deleteProperty: refuse, setPrototypeOf: refuse };
  const views = new Map<string, FakeState>();
  return new Proxy(states, {
    ...traps,
    get(target, key) {
      const value = Reflect.get(target, key);
      if (typeof key !== "string" || !value || typeof value !== "object") return value;
      let view = views.get(key);
      if (!view) views.set(key, (view = new Proxy(value as FakeState, traps)));
      return view;
    },
  });
}
