import { Immer, enablePatches, type Patch } from "immer";
import { isCommittedEntity, isLayered, layerable, noteDerived } from "../../core/record/index.js";
import { changedKeysOf, rememberChangedKeys, rememberKeys } from "./changed-keys.js";
import { deepFreeze } from "./deep-freeze.js";
import { detached } from "./detach-draft.js";
import { jsonBytes, jsonBytesAfter, rememberBytes } from "./json-bytes.js";
import { type KeyedDraft, keyedDraft, recordsKey } from "./keyed-draft.js";
import { readOnlyView } from "./read-only-view.js";
import { SerialQueue } from "./serial-queue.js";

/** One fake's state: entity name → value. */
export type FakeState = Record<string, unknown>;
/** Every fake's state by fake id. */
export type States = Record<string, FakeState>;

/** A commit: its number in this store (1, 2, …) and each written entity's value before and after it. */
export interface Commit {
  seq: number;
  before: FakeState;
  after: FakeState;
  /**
   * For an entity that is an object keyed by id, the keys the commit changed, when a draft's
   * patches say so: every other key holds the same value before and after. Absent when unknown.
   */
  keys?: Record<string, readonly string[]>;
}

/** A call's working copy of its fake's state: the entities it writes are its own to change. */
export interface Draft {
  state: FakeState;
  /** The entities the call may change. */
  writes: readonly string[];
  /**
   * The written entities the handler read or replaced, with their values now: what to commit.
   * Ends the draft: call `detach` on anything the handler returned or logged first.
   */
  changes(): FakeState | undefined;
  /** `value` with every part still borrowed from the draft copied out, so it outlives `changes`. */
  detach<T>(value: T): T;
}

// Drafts are not frozen by immer: `commit` freezes what is new itself, and `stateProblem` checks
// only the unfrozen (new) parts, so a change to one record of 100,000 checks one record.
// Patches name the records a write changed, so the commit can carry them (see changed-keys.ts).
enablePatches();
const immer = new Immer({ autoFreeze: false });

/** A commit that would grow a world past its byte limit: the size it would reach, and the limit. */
export interface OverLimit {
  bytes: number;
  limit: number;
}

/** A world's byte limit when none is set: 64 MiB of JSON, far past any world a Recipe means, well short of a process's memory. */
export const DEFAULT_MAX_WORLD_BYTES = 64 * 1024 * 1024;

/** What a store holds to: the most bytes of JSON its entities' values may take together. */
export interface StoreLimits {
  maxBytes?: number;
  /** Keys from which an entity keyed by id is laid over rather than copied on a write (`LAYERED_MIN_KEYS`; lower in tests). */
  layeredMinKeys?: number;
}

/**
 * Every fake's state, committed as whole transactions. Committed values are frozen; a call works
 * on a draft whose written entities are copies, and its changes land only when it commits, so
 * a call that throws, fails a guard or times out changes nothing.
 */
export class StateStore {
  /** The live state by fake id: each fake's object is kept, its entity values replaced on commit. */
  readonly states: States;
  /** The state every fake started from. */
  readonly initial: States;
  private readonly queues = new Map<string, SerialQueue>();
  private readonly listeners: Array<(fake: string, commit: Commit) => void> = [];
  private readOnly: States | undefined;
  private commits = 0;
  /** The most bytes the world may hold; none when unset. */
  readonly maxBytes: number | undefined;
  private readonly layeredMinKeys: number | undefined;
  /** The bytes it holds, counted once on first need, then kept up to date by each commit. */
  private bytes: number | undefined;
  /** The sizes `overLimit` measured for the commit that follows it, so the commit measures nothing again. */
  private measured: { fake: string; values: FakeState; bytes: number; sizes: Map<string, number> } | undefined;

  /**
   * `shared`: `states` and `initial` are frozen already (a session's starting world, built once
   * and shared by every session of its scenario): only the containers are new, no value is copied.
   */
  constructor(states: States, initial: States = states, shared = false, limits: StoreLimits = {}) {
    this.maxBytes = limits.maxBytes;
    this.layeredMinKeys = limits.layeredMinKeys;
    if (shared) {
      this.states = {};
      for (const [id, state] of Object.entries(states)) this.states[id] = { ...state };
      this.initial = initial;
      return;
    }
    // The containers stay open so commits can replace entity values in place; the values freeze.
    // A value frozen already (a cached starting world, a golden replay's start) is shared, not copied.
    this.states = {};
    for (const [id, state] of Object.entries(states)) this.states[id] = frozenValues(state);
    // A fresh start begins where it started: the frozen values can be shared, not copied again.
    this.initial =
      initial === states
        ? deepFreeze(Object.fromEntries(Object.entries(this.states).map(([id, state]) => [id, { ...state }])))
        : deepFreeze(Object.fromEntries(Object.entries(initial).map(([id, state]) => [id, frozenValues(state)])));
  }

  /**
   * Runs `task` after every earlier task of the same fake has finished; a task that writes
   * nothing runs at once, since it cannot lose an update (it reads a snapshot, see `snapshot`).
   */
  serialize<T>(fake: string, task: () => Promise<T>, writes = true): Promise<T> {
    if (!writes) return task();
    let queue = this.queues.get(fake);
    if (!queue) this.queues.set(fake, (queue = new SerialQueue()));
    return queue.run(task);
  }

  /**
   * A draft of one fake's state for a call that writes `writes`: those entities are copy-on-write
   * drafts (immer) the handler may change or replace, so a change copies only the records it
   * touches and shares every other one with the committed value; every other entity is the
   * committed (frozen) value on a read-only property, so changing it throws.
   */
  draft(fake: string, writes: readonly string[]): Draft {
    const current = this.states[fake] ?? {};
    // A call that writes nothing gets the committed values frozen in place of a draft (the same
    // read-only properties), with no immer draft to make, finish or copy out of.
    if (writes.length === 0) return { state: Object.freeze({ ...current }), writes, changes: () => undefined, detach: (value) => value };
    const state: FakeState = {};
    const touched = new Set<string>();
    for (const [name, value] of Object.entries(current)) {
      if (writes.includes(name)) continue;
      Object.defineProperty(state, name, { value, enumerable: true, writable: false, configurable: false });
    }
    // One root draft holds every written entity, so a value assigned to one entity that holds
    // parts of another's draft (`state.a = [...state.b]`) is finalised with the rest. An entity
    // keyed by id too large to copy has its records drafted under the root instead (keyed-draft.ts).
    const base: FakeState = {};
    const keyed = new Map<string, { recordsBase: FakeState; draft?: KeyedDraft }>();
    // The large entity's draft each written entity stands for (its own, until replaced; another's
    // once assigned it, `state.archive = state.orders`); one that stands for none is `root[name]`.
    const standsFor = new Map<string, string>();
    for (const name of writes) {
      base[name] = current[name];
      if (layerable(current[name], this.layeredMinKeys)) {
        // No prototype: a record keyed `__proto__` is one more key here, not the object's prototype.
        const recordsBase: FakeState = Object.create(null);
        base[recordsKey(name)] = recordsBase;
        keyed.set(name, { recordsBase });
        standsFor.set(name, name);
      }
    }
    const root = immer.createDraft(base);
    const draftOf = (owner: string): KeyedDraft => {
      const large = keyed.get(owner)!;
      large.draft ??= keyedDraft(owner, current[owner] as FakeState, () => root[recordsKey(owner)] as FakeState, large.recordsBase);
      return large.draft;
    };
    const ownerOf = (value: unknown): string | undefined => {
      for (const [owner, large] of keyed) if (large.draft !== undefined && large.draft.proxy === value) return owner;
      return undefined;
    };
    for (const name of writes) {
      Object.defineProperty(state, name, {
        enumerable: true,
        configurable: false,
        get: () => {
          touched.add(name);
          const owner = standsFor.get(name);
          return owner === undefined ? root[name] : draftOf(owner).proxy;
        },
        set: (value) => {
          touched.add(name);
          // A large entity's draft (its own, given back after replacing it, or another's) stays that
          // draft, with every change made through it; any other value replaces the entity whole.
          const owner = ownerOf(value);
          if (owner !== undefined) standsFor.set(name, owner);
          else {
            standsFor.delete(name);
            root[name] = value;
          }
        },
      });
    }
    Object.preventExtensions(state);
    return {
      state,
      writes,
      changes: () => {
        if (touched.size === 0) return undefined;
        for (const large of keyed.values()) large.draft?.seal();
        let patches: Patch[] = [];
        const done = immer.finishDraft(root, (made) => void (patches = made)) as FakeState;
        rememberChangedKeys(patches, base, done);
        // Each large entity's draft finished once, however many entities stand for it.
        const finished = new Map<string, unknown>();
        const finish = (owner: string): unknown => {
          if (finished.has(owner)) return finished.get(owner);
          const draft = keyed.get(owner)?.draft;
          let value: unknown = current[owner];
          if (draft) {
            const result = draft.finish(done[recordsKey(owner)] as FakeState);
            if (result.keys.length > 0) rememberKeys(result.value, current[owner] as object, result.keys);
            value = result.value;
          }
          finished.set(owner, value);
          return value;
        };
        const values: FakeState = {};
        for (const name of touched) {
          const owner = standsFor.get(name);
          values[name] = owner === undefined ? done[name] : finish(owner);
        }
        return values;
      },
      detach: (value) => {
        const keyedDraftOf = (part: object) => {
          const owner = ownerOf(part);
          return owner === undefined ? undefined : keyed.get(owner)!.draft;
        };
        return detached(value, new Set(), keyedDraftOf);
      },
    };
  }

  /**
   * One fake's state as it is now, as a consistent snapshot: committed values are frozen and
   * replaced whole, so a shallow copy of the fake's entities cannot change under a reader.
   */
  snapshot(fake: string): FakeState {
    return { ...(this.states[fake] ?? {}) };
  }

  /** The state of every fake as handlers see the world: reading works, changing it throws. */
  get view(): States {
    return (this.readOnly ??= readOnlyView(this.states));
  }

  /** The bytes of JSON the world's entity values take together (not their names or nesting). */
  get size(): number {
    if (this.bytes === undefined) {
      let bytes = 0;
      for (const state of Object.values(this.states)) for (const value of Object.values(state)) bytes += value === undefined ? 0 : jsonBytes(value);
      this.bytes = bytes;
    }
    return this.bytes;
  }

  /**
   * The size a commit of these values would grow the world to, when that is past `maxBytes`;
   * undefined when it fits. Only the changed entities are measured. A world already past its
   * limit (it started there) may still change in ways that do not grow it.
   */
  overLimit(fake: string, values: FakeState): OverLimit | undefined {
    if (this.maxBytes === undefined) return undefined;
    const target = this.states[fake] ?? {};
    const sizes = new Map<string, number>();
    let bytes = this.size;
    for (const [name, value] of Object.entries(values)) {
      const after = valueBytes(target[name], value);
      sizes.set(name, after);
      bytes += after - (target[name] === undefined ? 0 : jsonBytes(target[name]));
    }
    this.measured = { fake, values, bytes, sizes };
    return bytes > this.maxBytes && bytes > this.size ? { bytes, limit: this.maxBytes } : undefined;
  }

  /**
   * The commit these values would make, not yet made: its number and each entity's value before
   * and after. The evidence of a call is kept from it before `commit` applies it, with nothing
   * awaited in between, so no other commit can come first.
   */
  stage(fake: string, values: FakeState): Commit {
    const target = this.states[fake] ?? {};
    const before: FakeState = {};
    for (const name of Object.keys(values)) before[name] = target[name];
    return { seq: this.commits + 1, before, after: values, ...keysOf(before, values) };
  }

  /**
   * Commits new values of some of a fake's entities together, tells the listeners, and returns
   * the commit (the values it replaced are kept by reference: the record's patch is made from them).
   * A commit `stage` made is applied as staged.
   */
  commit(fake: string, values: FakeState, staged?: Commit): Commit {
    if (staged !== undefined && staged.seq !== this.commits + 1)
      throw new Error(`[eval-simulate] commit ${staged.seq} was staged, but ${this.commits} commits came before it`);
    const target = (this.states[fake] ??= {});
    // Measured by `overLimit` just before, with nothing in between; else measured now, when counted at all.
    const measured = this.measured?.fake === fake && this.measured.values === values ? this.measured : undefined;
    this.measured = undefined;
    let bytes = measured?.bytes ?? this.bytes;
    const before: FakeState = {};
    const { keys } = keysOf(target, values);
    for (const [name, value] of Object.entries(values)) {
      before[name] = target[name];
      const size = !measured && bytes !== undefined ? valueBytes(target[name], value) : undefined;
      if (size !== undefined && bytes !== undefined) bytes += size - (target[name] === undefined ? 0 : jsonBytes(target[name]));
      if (value === undefined) delete target[name];
      else if (keys?.[name]) {
        target[name] = freezeChanged(value as FakeState, keys[name]);
        // Frozen now, as the value it replaces: comparing the two (or two worlds from one start) costs these keys.
        if (before[name] !== null && typeof before[name] === "object") noteDerived(value as object, before[name] as object, keys[name]);
      } else target[name] = deepFreeze(value);
      if (measured || size !== undefined) rememberBytes(value, measured ? measured.sizes.get(name)! : size!);
    }
    this.bytes = bytes;
    const commit = { seq: ++this.commits, before, after: values, ...(keys && { keys }) };
    // A listener that fails (a state file that cannot be written) must not undo or hide a
    // commit that already happened: it is the listener's to report.
    // Listeners are told the staged commit when there is one: what the record's patch was made from.
    const told = staged ?? commit;
    for (const listener of this.listeners) {
      try {
        listener(fake, told);
      } catch {
        // Reported by the listener itself.
      }
    }
    return commit;
  }

  /** Called after every commit with the fake's id and the commit, until the function it returns is called. */
  onCommit(listener: (fake: string, commit: Commit) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  /** Resolves when every queued call of every fake has settled. */
  async idle(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.idle()));
  }
}

/** The commit's `keys` field: the changed keys of each entity a draft's patches name. */
function keysOf(before: FakeState, after: FakeState): { keys?: Record<string, readonly string[]> } {
  let keys: Record<string, readonly string[]> | undefined;
  for (const name of Object.keys(after)) {
    const changed = changedKeysOf(before[name], after[name]);
    if (changed) (keys ??= {})[name] = changed;
  }
  return keys ? { keys } : {};
}

/** The bytes of a new entity value as JSON: from the value before it and the changed keys, when a draft named them. */
function valueBytes(before: unknown, after: unknown): number {
  if (after === undefined) return 0;
  const keys = changedKeysOf(before, after);
  return keys ? jsonBytesAfter(before as object, after as object, keys) : jsonBytes(after);
}

/** An object whose other keys hold committed (frozen) values already: only the changed ones are walked. */
function freezeChanged(value: FakeState, keys: readonly string[]): FakeState {
  // A layer (layered-object.ts) is read only already, and cannot be frozen.
  if (!isLayered(value)) Object.freeze(value);
  for (const key of keys) deepFreeze(value[key]);
  return value;
}

/** A fake's entity values frozen: those frozen already are kept as they are, the others copied first. */
function frozenValues(state: FakeState): FakeState {
  const values: FakeState = {};
  for (const [name, value] of Object.entries(state))
    values[name] = value !== null && typeof value === "object" && !isCommittedEntity(value) ? deepFreeze(structuredClone(value)) : value;
  return values;
}
