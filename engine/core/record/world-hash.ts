/**
 * World hashes: the sha256 of each entity's canonical JSON (keys sorted, numbers as JSON writes
 * them), of each fake (its entities' hashes by name) and of the whole world. Two worlds built
 * from the same scenario and clock hash equal, whatever order their keys were written in.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "./changed-entities.js";
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

/**
 * The hash of one JSON value: sha256 of its canonical JSON (`undefined` hashes as `null`).
 *
 * @example valueHash({ b: 1, a: 2 }) === valueHash({ a: 2, b: 1 }) // true
 */
export function valueHash(value: unknown): string {
  return sha256(canonicalJson(value) ?? "null");
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
