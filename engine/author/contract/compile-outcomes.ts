/**
 * What a schema compile that succeeded leaves behind, kept so a later process can trust it
 * without compiling again: ajv's warnings and the patterns that fell back to JavaScript's
 * engine, by the sha256 of the compile's key (the dialect and the schema's whole text). A
 * compile is a pure function of that key and of the engine's build, so an outcome recorded by
 * one build holds for every later compile of the same key by the same build: the manifest cache
 * keys its entries by the build, records the outcomes of a check, and hands them back here on a
 * hit. An outcome may also carry the validator's standalone code (what ajv generated for it);
 * the schema compiler then runs that code on the schema's first use, and compiles on first use
 * the schemas whose outcome has none.
 */
import { createHash } from "node:crypto";
import type { PatternNote } from "./linear-pattern.js";

/** A successful compile's warnings and pattern notes. */
export interface CompileOutcome {
  warnings: string[];
  notes: PatternNote[];
  /** The validator's standalone code (`ajv-engines.ts`), when ajv could write it. */
  code?: string;
}

/** Standalone code one recording keeps at most, in characters: past it, outcomes are kept without it. */
export const MAX_RECORDED_CODE = 8 * 1024 * 1024;

/** Outcomes trusted for the process, by key hash (bounded: past it, new ones are not kept). */
const trusted = new Map<string, CompileOutcome>();
const MAX_TRUSTED = 50_000;
/** The recordings under way: every compile adds its outcome to each, and the code it kept so far. */
const recordings = new Map<Map<string, CompileOutcome>, { code: number }>();

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
  recordings.set(outcomes, { code: 0 });
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

/** Whether a recording is under way: only then is a compile's standalone code worth writing. */
export function recordingCompiles(): boolean {
  return recordings.size > 0;
}

/** Notes a compile's outcome in every recording under way (its code while the recording's budget lasts). */
export function noteCompileOutcome(key: string, outcome: CompileOutcome, hash?: string): void {
  if (recordings.size === 0) return;
  const known = hash ?? compileKeyHash(key);
  for (const [recording, kept] of recordings) {
    // The same key always compiles the same way: one with its code already noted stays.
    if (recording.get(known)?.code !== undefined) continue;
    const code = outcome.code;
    if (code !== undefined && kept.code + code.length <= MAX_RECORDED_CODE) {
      kept.code += code.length;
      recording.set(known, outcome);
    } else recording.set(known, withoutCode(outcome));
  }
}

const withoutCode = ({ warnings, notes }: CompileOutcome): CompileOutcome => ({ warnings, notes });

/** The trusted outcome of a compile key, if a check by this build recorded one. */
export function trustedOutcome(key: string): { hash: string; outcome: CompileOutcome } | undefined {
  if (trusted.size === 0) return undefined;
  const hash = compileKeyHash(key);
  const outcome = trusted.get(hash);
  return outcome && { hash, outcome };
}
