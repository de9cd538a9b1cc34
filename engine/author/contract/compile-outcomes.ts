/**
 * What a schema compile that succeeded leaves behind, kept so a later process can trust it
 * without compiling again: ajv's warnings and the patterns that fell back to JavaScript's
 * engine, by the sha256 of the compile's key (the dialect and the schema's whole text). A
 * compile is a pure function of that key and of the engine's build, so an outcome recorded by
 * one build holds for every later compile of the same key by the same build: the manifest cache
 * keys its entries by the build, records the outcomes of a check, and hands them back here on a
 * hit, and the schema compiler then compiles those schemas on their first use instead.
 */
import { createHash } from "node:crypto";
import type { PatternNote } from "./linear-pattern.js";

/** A successful compile's warnings and pattern notes. */
export interface CompileOutcome {
  warnings: string[];
  notes: PatternNote[];
}

/** Outcomes trusted for the process, by key hash (bounded: past it, new ones are not kept). */
const trusted = new Map<string, CompileOutcome>();
const MAX_TRUSTED = 50_000;
/** The recordings under way: every compile adds its outcome to each. */
const recordings = new Set<Map<string, CompileOutcome>>();

/** The hash a compile key is known by. */
export function compileKeyHash(key: string): string {
  return createHash("sha256").update(key).digest("base64url");
}

/**
 * Records the outcome of every schema compile from now until `stop()`: what the manifest cache
 * stores beside a checked manifest.
 *
 * @example const recording = recordCompileOutcomes(); check(); const outcomes = recording.stop();
 */
export function recordCompileOutcomes(): { stop(): Record<string, CompileOutcome> } {
  const outcomes = new Map<string, CompileOutcome>();
  recordings.add(outcomes);
  return {
    stop() {
      recordings.delete(outcomes);
      return Object.fromEntries(outcomes);
    },
  };
}

/**
 * Trusts outcomes a check by this same build recorded: a compile of one of their keys is
 * deferred to the schema's first use.
 */
export function trustCompileOutcomes(outcomes: Record<string, CompileOutcome>): void {
  for (const [hash, outcome] of Object.entries(outcomes)) {
    if (trusted.size >= MAX_TRUSTED) return;
    trusted.set(hash, outcome);
  }
}

/** Notes a compile's outcome in every recording under way. */
export function noteCompileOutcome(key: string, outcome: CompileOutcome, hash?: string): void {
  if (recordings.size === 0) return;
  const known = hash ?? compileKeyHash(key);
  for (const recording of recordings) recording.set(known, outcome);
}

/** The trusted outcome of a compile key, if a check by this build recorded one. */
export function trustedOutcome(key: string): { hash: string; outcome: CompileOutcome } | undefined {
  if (trusted.size === 0) return undefined;
  const hash = compileKeyHash(key);
  const outcome = trusted.get(hash);
  return outcome && { hash, outcome };
}
