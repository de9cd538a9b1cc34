/** Seeded randomness and small records for the random suites over state stores. */

/** A small deterministic generator, so a failure reproduces. */
export function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** A record of the random suites: an id, a number, a list and a nested object. */
export type Rec = { id: string; v: number; tags: string[]; note?: { text: string } };

export const record = (id: string, v: number): Rec => ({ id, v, tags: ["a", "b"], note: { text: `n${v}` } });
