/**
 * World hashes: the sha256 of each entity's canonical JSON (keys sorted, numbers as JSON writes
 * them), of each fake (its entities' hashes by name) and of the whole world. Two worlds built
 * from the same scenario and clock hash equal, whatever order their keys were written in.
 *
 * Committed state is frozen and a commit shares every record it did not change, so hashes are
 * kept per frozen value (a `WeakMap`): a world hashed again after a commit hashes only the
 * entities the commit replaced, and those from their records' kept canonical text, so only the
 * changed records are written out again. Unfrozen values are hashed afresh every time.
 */
import { isCommitted, isCommittedEntity, ownEntry, ownKeysOf } from "./layered-object.js";
import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";
import type { StatesByFake } from "./types.js";

/** One fake's hash and its entities' hashes. */
export interface FakeHash {
  hash: string;
  entities: Record<string, string>;
}

/** A world's hash, and each fake's. */
export interface WorldHash {
  hash: string;
  fakes: Record<string, FakeHash>;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Hashes of frozen values already hashed. */
const hashes = new WeakMap<object, string>();
/** The canonical JSON of frozen values that were parts (records) of a value hashed. */
const texts = new WeakMap<object, string>();

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
};

/** A part's canonical JSON: kept when the part is frozen, so it is written out once. */
function partText(value: unknown): string | undefined {
  if (value === null || typeof value !== "object") return canonicalJson(value);
  const kept = texts.get(value);
  if (kept !== undefined) return kept;
  const text = canonicalJson(value);
  if (text !== undefined && isCommitted(value)) texts.set(value, text);
  return text;
}

/**
 * A value's canonical JSON from its parts' canonical JSON: the same text `canonicalJson` writes
 * (keys sorted, `undefined` left out of objects and `null` in arrays), joined from parts kept.
 */
function joinedText(value: object): string | undefined {
  if (Array.isArray(value)) {
    // A for loop, not map: a hole in a sparse array is written as null, as JSON.stringify does.
    const parts: string[] = [];
    for (let i = 0; i < value.length; i++) parts.push(partText(value[i]) ?? "null");
    return `[${parts.join(",")}]`;
  }
  if (!isPlain(value)) return canonicalJson(value);
  const entries = value as Record<string, unknown>;
  const parts: string[] = [];
  // A layer's keys and records read from it, not through its Proxy's traps (several times slower).
  for (const key of [...ownKeysOf(entries)].sort()) {
    const text = partText(ownEntry(entries, key));
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(",")}}`;
}

/**
 * The hash of one JSON value: sha256 of its canonical JSON (`undefined` hashes as `null`).
 * Kept for a frozen value, so committed state is hashed once.
 *
 * @example valueHash({ b: 1, a: 2 }) === valueHash({ a: 2, b: 1 }) // true
 */
export function valueHash(value: unknown): string {
  if (value === null || typeof value !== "object") return sha256(canonicalJson(value) ?? "null");
  const kept = hashes.get(value);
  if (kept !== undefined) return kept;
  const frozen = isCommittedEntity(value);
  const hash = sha256((frozen ? joinedText(value) : canonicalJson(value)) ?? "null");
  if (frozen) hashes.set(value, hash);
  return hash;
}

/**
 * One fake's hash: each entity's `valueHash`, and the hash of those hashes by sorted name.
 *
 * @example fakeHash(services.states.crm).entities.records // "9f86d0…"
 */
export function fakeHash(state: Record<string, unknown>): FakeHash {
  const entities: Record<string, string> = {};
  for (const name of Object.keys(state).sort()) if (state[name] !== undefined) entities[name] = valueHash(state[name]);
  return { hash: sha256(canonicalJson(entities) ?? "{}"), entities };
}

/**
 * The hash of every fake's state and of the whole world (the fakes' hashes by sorted id), so a
 * judge compares a run's final world with a reference one by a string, and a differing hash
 * says which fake and entity differ.
 *
 * @example
 * worldHash(JSON.parse(readFileSync("run/state.json", "utf8"))).hash // "3b1f…"
 * worldHash(states).fakes.crm.entities.records
 */
export function worldHash(states: StatesByFake): WorldHash {
  if (typeof states !== "object" || states === null || Array.isArray(states)) throw new Error("[eval-simulate] worldHash needs the states keyed by fake id");
  const fakes: Record<string, FakeHash> = {};
  for (const id of Object.keys(states).sort()) fakes[id] = fakeHash(states[id] ?? {});
  const byId = Object.fromEntries(Object.entries(fakes).map(([id, fake]) => [id, fake.hash]));
  return { hash: sha256(canonicalJson(byId) ?? "{}"), fakes };
}
