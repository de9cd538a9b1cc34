/**
 * A handler's draft of an entity keyed by id too large to copy (see core's `layered-object.ts`):
 * immer would copy all of its keys the moment a handler reads one record through it. This draft
 * hands out immer drafts of the records the handler reaches, made inside the call's one root
 * draft (so a record moved into another entity is finalised with the rest), and keeps which
 * keys were read, set or deleted; finishing the root gives the changed records, which the
 * commit lays over the committed value without copying the others.
 */
import { inspect } from "node:util";
import { current, isDraft } from "immer";
import { ABSENT, type KeyChange, orderedKeys, ownEntry, REMOVED, withChanges } from "../../core/record/index.js";

type Json = Record<string, unknown>;

/** What the draft did to one key: reached through (`read`), assigned, or deleted. */
type Local = { kind: "read" | "set"; appended: boolean } | typeof REMOVED;

/** The root draft's key under which an entity's records are drafted: no entity name has a NUL. */
export const recordsKey = (entity: string): string => `\u0000records:${entity}`;

/** One keyed entity's draft: the Proxy a handler sees, and how to finish it. */
export interface KeyedDraft {
  proxy: Json;
  /**
   * Ends the handler's use of the draft, before the root draft is finished: the proxy refuses
   * everything after, so one put inside another value (which the root's finishing would walk,
   * drafting records as it went) fails the call with a message instead of committing a Proxy.
   */
  seal(): void;
  /** The committed value with the draft's changes laid over it, from the finished root's records; the value itself when nothing changed. */
  finish(records: Json): { value: Json; keys: string[] };
  /** A plain copy of the entity as the draft holds it now, records still drafted copied out by `copyOut`. */
  snapshot(copyOut: (value: unknown) => unknown): Json;
}

/** Where immer keeps a draft's state (a registered symbol, the same in every copy of immer). */
const DRAFT_STATE = Symbol.for("immer-state");

const refuse = (what: string): never => {
  throw new TypeError(`[eval-simulate] ${what} an entity's record is not supported in a handler: assign the record instead`);
};

/**
 * A draft of `committed` (a layer or a large frozen plain object) whose records are drafted in
 * `records()` (the root draft's child for this entity), their first base put in `recordsBase`.
 */
export function keyedDraft(entity: string, committed: Json, records: () => Json, recordsBase: Json): KeyedDraft {
  const local = new Map<string, Local>();
  let sealed = false;
  const open = (): void => {
    if (sealed)
      throw new TypeError(
        `[eval-simulate] the entity ${entity} (too large to copy) was put inside another value; put a copy of the records it needs there instead`,
      );
  };
  // The committed value's keys are read from it directly (`ownEntry`), not through a layer's traps.
  const exists = (key: string): boolean => {
    const mine = local.get(key);
    return mine !== undefined ? mine !== REMOVED : ownEntry(committed, key) !== ABSENT;
  };
  const read = (key: string): unknown => {
    const mine = local.get(key);
    if (mine === REMOVED) return undefined;
    if (mine !== undefined) return records()[key];
    const value = ownEntry(committed, key);
    if (value === ABSENT) return undefined;
    if (value === null || typeof value !== "object") return value;
    // The record enters the root draft as its base, so immer drafts it (and shares what it does not change).
    recordsBase[key] = value;
    const drafts = records();
    // Once immer has copied the records' draft, a key put in its base is not in the copy: put it
    // there too, as the base holds it, so reading it drafts it as any key of the base (immer's
    // own state, `Symbol.for("immer-state")`, read with care: should it change, the assignment
    // below does the same work, at the cost of marking every record read as assigned).
    const state = (drafts as { [DRAFT_STATE]?: { copy_?: unknown } })[DRAFT_STATE];
    const copy = state?.copy_;
    if (copy !== null && typeof copy === "object" && !Object.hasOwn(copy, key)) (copy as Json)[key] = value;
    let draft = drafts[key];
    if (!isDraft(draft)) {
      // The records' draft was copied before this key entered its base: give the copy the key too.
      drafts[key] = value;
      draft = drafts[key];
    }
    local.set(key, { kind: "read", appended: false });
    return draft;
  };
  const assign = (key: string, value: unknown): void => {
    const mine = local.get(key);
    // A key added (or added again after a delete) goes last, as a plain object orders it; one
    // that is there stays where it stands (after the others, if this draft appended it).
    const added = mine === REMOVED || (mine === undefined && ownEntry(committed, key) === ABSENT);
    records()[key] = value;
    if (added) local.delete(key);
    local.set(key, { kind: "set", appended: added || mine?.appended === true });
  };
  const remove = (key: string): void => {
    const mine = local.get(key);
    if (mine !== undefined && mine !== REMOVED) delete records()[key];
    if (ownEntry(committed, key) !== ABSENT) local.set(key, REMOVED);
    else local.delete(key);
  };
  const keys = (): string[] => orderedKeys(committed, local);

  const target: Json = {};
  // What `console.log(state.orders)` shows: node's inspect looks at a Proxy's target, not its traps.
  Object.defineProperty(target, inspect.custom, {
    value: (_depth: number, options: object) =>
      sealed
        ? "[finished draft]"
        : inspect(
            snapshot((value) => (isDraft(value) ? current(value as object) : value)),
            options,
          ),
    configurable: true,
    enumerable: false,
  });
  const proxy = new Proxy<Json>(target, {
    get: (_target, key, receiver) => {
      open();
      return typeof key === "string" && exists(key) ? read(key) : Reflect.get(Object.prototype, key, receiver);
    },
    has: (_target, key) => {
      open();
      return (typeof key === "string" && exists(key)) || key in Object.prototype;
    },
    set: (_target, key, value) => {
      open();
      if (typeof key !== "string") return refuse("A symbol key on");
      // Assigning `__proto__` to a plain object (and to immer's draft of one, even one holding
      // such a key) sets its prototype, which a draft refuses: a record of that key is changed in place.
      if (key === "__proto__")
        throw new TypeError(
          "[eval-simulate] a record keyed __proto__ cannot be assigned in a handler (assigning __proto__ sets an object's prototype): change it in place",
        );
      assign(key, value);
      return true;
    },
    deleteProperty: (_target, key) => {
      open();
      if (typeof key === "string" && exists(key)) remove(key);
      return true;
    },
    ownKeys: () => {
      open();
      return keys();
    },
    getOwnPropertyDescriptor: (target, key) => {
      open();
      if (typeof key !== "string" || !exists(key)) return Reflect.getOwnPropertyDescriptor(target, key);
      // The value as it stands, not a new draft (as immer's own trap does): enumerating keys drafts nothing.
      return { value: local.has(key) ? records()[key] : ownEntry(committed, key), writable: true, enumerable: true, configurable: true };
    },
    defineProperty: () => refuse("Object.defineProperty on"),
    getPrototypeOf: () => Object.prototype,
    setPrototypeOf: () => false,
    preventExtensions: () => false,
  });
  return {
    proxy,
    seal: () => void (sealed = true),
    finish(done) {
      const changes = new Map<string, KeyChange>();
      for (const [key, mine] of local) {
        if (mine === REMOVED) {
          changes.set(key, REMOVED);
          continue;
        }
        const value = done[key];
        // A record only read, or assigned its own value, is unchanged where it stands.
        if (!mine.appended && value === ownEntry(committed, key)) continue;
        changes.set(key, { value, appended: mine.appended });
      }
      if (changes.size === 0) return { value: committed, keys: [] };
      return { value: withChanges(committed, changes), keys: [...changes.keys()] };
    },
    snapshot,
  };

  function snapshot(copyOut: (value: unknown) => unknown): Json {
    const copy: Json = {};
    for (const key of keys()) {
      const mine = local.get(key);
      const value = mine === undefined ? ownEntry(committed, key) : copyOut(records()[key]);
      if (key === "__proto__") Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
      else copy[key] = value;
    }
    return copy;
  }
}
