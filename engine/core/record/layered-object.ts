/**
 * Entities keyed by id too large to copy on every write. Copying an object of 100,000 keys
 * costs about 90 ms however few of them a write changes (V8 copies every key of an object that
 * large one by one), so a committed entity past `LAYERED_MIN_KEYS` keys is held as a layer: a
 * frozen plain object shared by every world made from it, and the keys changed since. A Proxy
 * makes the layer read as the plain object it stands for, to `JSON.stringify`, `Object.keys`,
 * `for…in`, `in`, `Object.hasOwn` and JSONata alike, keys in the order a plain object would
 * hold them; changing it throws, as changing a frozen object does. Once the keys changed since
 * the base pass `maxChanges` (4 × √ of the base's keys: 256 of 4,096, 1,265 of 100,000), the
 * layer is copied out into a new frozen plain object, so no lookup ever goes through more than
 * one map.
 *
 * A layer is not frozen to `Object.isFrozen` (a Proxy cannot claim that without holding every
 * key itself): code that asks whether a value is committed asks `isCommitted`.
 */
import { inspect } from "node:util";

type Json = Record<string, unknown>;

/** A key removed since the base. */
export const REMOVED: unique symbol = Symbol("removed");

/**
 * A key's change since the base: its value, and whether it now stands after every key of the
 * base (a key added, or removed and added again, as a plain object moves it to the end).
 */
export type KeyChange = { value: unknown; appended: boolean } | typeof REMOVED;

/** What a layer holds: the shared base and the keys changed since, in the order they were added. */
interface Layer {
  base: Json;
  changes: ReadonlyMap<string, KeyChange>;
  /** Its own keys in order, once asked for (`ownKeysOf` hands it out: never changed). */
  keys?: string[];
}

/** Objects keyed by id with fewer keys than this are copied on write as any other value. */
export const LAYERED_MIN_KEYS = 4096;

const layers = new WeakMap<object, Layer>();
/** Key counts of plain frozen objects asked about, so an entity is counted once. */
const sizes = new WeakMap<object, number>();

/** True when `value` is a layer (see the top of this file). */
export const isLayered = (value: unknown): boolean => typeof value === "object" && value !== null && layers.has(value);

/**
 * True when `value` is committed state that nothing can change: a frozen object or a layer. A
 * frozen object's parts may still be unfrozen; a committed value's are not.
 */
export const isCommitted = (value: object): boolean => layers.has(value) || Object.isFrozen(value);

/**
 * `isCommitted` for an entity's value, its answer kept: asking an object of 100,000 keys whether
 * it is frozen costs 1.5 ms (V8 checks every key of an object that large), and a committed
 * entity is asked on every call. Kept only for what callers pass as an entity, not for every
 * record (keeping an answer costs more than asking a small object).
 */
export function isCommittedEntity(value: object): boolean {
  if (layers.has(value) || frozenEntities.has(value)) return true;
  if (!Object.isFrozen(value)) return false;
  if (!Array.isArray(value)) frozenEntities.add(value);
  return true;
}

/** Entity values found frozen: frozen stays frozen. */
const frozenEntities = new WeakSet<object>();

const isPlainObject = (value: unknown): value is Json => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
};

/** The number of own keys of a plain object, counted once per frozen object. */
function sizeOf(base: Json): number {
  let size = sizes.get(base);
  if (size === undefined) {
    size = Object.keys(base).length;
    if (isCommittedEntity(base)) sizes.set(base, size);
  }
  return size;
}

/**
 * True when a write to `value` should make a layer rather than copy it: a layer already, or a
 * frozen plain object of at least `minKeys` keys.
 */
export function layerable(value: unknown, minKeys = LAYERED_MIN_KEYS): value is Json {
  if (typeof value !== "object" || value === null) return false;
  if (layers.has(value)) return true;
  return isCommittedEntity(value) && isPlainObject(value) && sizeOf(value) >= minKeys;
}

/** Changes since the base past which a layer is copied out into a plain object. */
export const maxChanges = (baseKeys: number): number => Math.max(16, Math.ceil(Math.sqrt(baseKeys) * 4));

/** True for a key a plain object orders first, ascending: an array index. */
const isIndex = (key: string): boolean => /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < 4294967295;

/** A plain object's own-key order: array indices first (ascending), then the rest as added. */
function plainOrder(keys: string[]): string[] {
  if (!keys.some(isIndex)) return keys;
  const indices = keys.filter(isIndex).sort((a, b) => Number(a) - Number(b));
  return [...indices, ...keys.filter((key) => !isIndex(key))];
}

/**
 * The own keys of `base` (a plain object or a layer) changed by `changes`, in a plain object's
 * order: the base's keys where they stand (those removed, or removed and added again, left out), then the appended ones.
 */
export function orderedKeys(base: Json, changes: ReadonlyMap<string, { appended: boolean } | typeof REMOVED>): string[] {
  const keys: string[] = [];
  for (const key of ownKeysOf(base)) {
    const change = changes.get(key);
    if (change === undefined || (change !== REMOVED && !change.appended)) keys.push(key);
  }
  let appendedIndex = false;
  for (const [key, change] of changes)
    if (change !== REMOVED && change.appended) {
      keys.push(key);
      appendedIndex ||= isIndex(key);
    }
  return appendedIndex ? plainOrder(keys) : keys;
}

/** What `ownEntry` gives for a key that is not an own key. */
export const ABSENT: unique symbol = Symbol("absent");

/** The value of own key `key` of the value `layer` stands for, or `ABSENT`: one lookup in each map. */
function entryOf(layer: Layer, key: string): unknown {
  const change = layer.changes.get(key);
  if (change !== undefined) return change === REMOVED ? ABSENT : change.value;
  return Object.hasOwn(layer.base, key) ? layer.base[key] : ABSENT;
}

/**
 * The value of own key `key` of `value` (a layer or a plain object), or `ABSENT` when it has no
 * such key: what a keyed draft asks of its committed value for every key a handler reaches,
 * read from the layer itself rather than through its Proxy's traps (several times slower).
 */
export function ownEntry(value: Json, key: string): unknown {
  const layer = layers.get(value);
  if (layer) return entryOf(layer, key);
  return Object.hasOwn(value, key) ? value[key] : ABSENT;
}

/** The own keys of `value` (a layer or a plain object) in order, a layer's read from it rather than through its Proxy. Not to be changed. */
export function ownKeysOf(value: Json): readonly string[] {
  const layer = layers.get(value);
  return layer ? keysOfLayer(layer) : Object.keys(value);
}

/** A layer's own keys in order, worked out once. */
const keysOfLayer = (layer: Layer): string[] => (layer.keys ??= orderedKeys(layer.base, layer.changes));

const refuse = (what: string, key: string | symbol): never => {
  throw new TypeError(`Cannot ${what} read only property '${String(key)}' of object '#<Object>'`);
};

/** The traps of one layer's Proxy: each reads the layer it was made for. */
class LayerTraps implements ProxyHandler<Json> {
  constructor(private readonly layer: Layer) {}
  get(_target: Json, key: string | symbol, receiver: unknown): unknown {
    const value = typeof key === "string" ? entryOf(this.layer, key) : ABSENT;
    return value !== ABSENT ? value : Reflect.get(Object.prototype, key, receiver);
  }
  has(_target: Json, key: string | symbol): boolean {
    return (typeof key === "string" && entryOf(this.layer, key) !== ABSENT) || key in Object.prototype;
  }
  ownKeys(): string[] {
    return keysOfLayer(this.layer);
  }
  getOwnPropertyDescriptor(target: Json, key: string | symbol): PropertyDescriptor | undefined {
    const value = typeof key === "string" ? entryOf(this.layer, key) : ABSENT;
    if (value === ABSENT) return Reflect.getOwnPropertyDescriptor(target, key);
    // Configurable, or the Proxy would have to hold the key itself; read only, as frozen keys are.
    return { value, writable: false, enumerable: true, configurable: true };
  }
  getPrototypeOf(): object {
    return Object.prototype;
  }
  set(_target: Json, key: string | symbol): boolean {
    return refuse("assign to", key);
  }
  defineProperty(_target: Json, key: string | symbol): boolean {
    return refuse("redefine", key);
  }
  deleteProperty(_target: Json, key: string | symbol): boolean {
    return refuse("delete", key);
  }
  setPrototypeOf(): boolean {
    return false;
  }
  preventExtensions(): boolean {
    return false;
  }
}

/** A new layer over `base` (frozen, plain) with `changes`. */
function makeLayer(base: Json, changes: ReadonlyMap<string, KeyChange>): Json {
  const layer: Layer = { base, changes };
  const target: Json = {};
  const proxy = new Proxy(target, new LayerTraps(layer));
  // What `console.log` of a layer shows: node's inspect looks at a Proxy's target, not its traps.
  Object.defineProperty(target, inspect.custom, {
    value: (_depth: number, options: object) => inspect(plainCopy(proxy), options),
    configurable: true,
    enumerable: false,
  });
  layers.set(proxy, layer);
  return proxy;
}

/** A frozen plain object holding what a layer stands for, keys in its order (values shared). */
function plainCopy(value: Json): Json {
  const copy: Json = {};
  // The layer's keys and values read from it, not through its Proxy's traps.
  for (const key of ownKeysOf(value)) {
    const inner = ownEntry(value, key);
    if (key === "__proto__") Object.defineProperty(copy, key, { value: inner, enumerable: true, writable: true, configurable: true });
    else copy[key] = inner;
  }
  return Object.freeze(copy);
}

/**
 * `value` (a layer, or a frozen plain object) with `changes` made to it, as a new committed
 * value sharing every unchanged key with it: a layer, or a frozen plain object when the keys
 * changed since the base have grown past `maxChanges`. `changes`' appended keys go after
 * every key `value` holds, in their order; a key not changed is kept where it stands.
 *
 * @example withChanges(orders, new Map([["o-7", { value: shipped, appended: false }]])).["o-7"] === shipped
 */
export function withChanges(value: Json, changes: ReadonlyMap<string, KeyChange>): Json {
  const layer = layers.get(value);
  const base = layer?.base ?? value;
  const merged = new Map(layer?.changes ?? []);
  for (const [key, change] of changes) {
    if (change === REMOVED) {
      // A key added since the base goes; one of the base is marked removed.
      if (Object.hasOwn(base, key)) merged.set(key, REMOVED);
      else merged.delete(key);
    } else if (change.appended) {
      // To the end, whether it was the base's or not: a plain object orders a re-added key last.
      merged.delete(key);
      merged.set(key, { value: change.value, appended: true });
    } else {
      // In place: a key appended earlier stays where it was appended.
      const before = merged.get(key);
      merged.set(key, { value: change.value, appended: before !== undefined && before !== REMOVED && before.appended });
    }
  }
  if (merged.size === 0) return base;
  const next = makeLayer(base, merged);
  return merged.size > maxChanges(sizeOf(base)) ? plainCopy(next) : next;
}

/**
 * A fake's entities with each layer copied out into a plain object, for what cannot read a
 * Proxy (`structuredClone`, a worker's message); other values are kept as they are.
 */
export function plainEntities<T extends Record<string, unknown>>(state: T): T {
  const entries = Object.entries(state);
  if (!entries.some(([, value]) => isLayered(value))) return state;
  return Object.fromEntries(entries.map(([name, value]) => [name, isLayered(value) ? plainCopy(value as Json) : value])) as T;
}

/** The keys a layer has changed since its base (for tests and diagnostics). */
export function layerChanges(value: object): ReadonlyMap<string, KeyChange> | undefined {
  return layers.get(value)?.changes;
}
