/**
 * A handler's answer or log taken out of its draft: what it returns may hold parts of immer's
 * draft, which stop working once the draft is finished, so they are copied out first.
 */
import { current, isDraft } from "immer";
import { isCommitted } from "../../core/record/index.js";
import type { KeyedDraft } from "./keyed-draft.js";

/**
 * `value` with each immer draft in it replaced by a plain copy of the draft as it is now
 * (changed in place where a container holds a draft; frozen values are kept as they are).
 *
 * @example const answer = detached(returned, new Set());
 */
export function detached<T>(value: T, seen: Set<object>, keyedDraftOf: (value: object) => KeyedDraft | undefined = () => undefined): T {
  if (value === null || typeof value !== "object") return value;
  if (isDraft(value)) return current(value as object) as T;
  // A committed value holds no draft; a cycle is left to the answer's own checks.
  if (isCommitted(value) || seen.has(value)) return value;
  // An entity too large to copy, as its draft holds it now (its records drafted copied out).
  const keyed = keyedDraftOf(value);
  if (keyed) return keyed.snapshot((inner) => detached(inner, seen, keyedDraftOf)) as T;
  seen.add(value);
  const entries = value as Record<string, unknown>;
  for (const key of Object.keys(entries)) {
    const inner = entries[key];
    const copy = detached(inner, seen, keyedDraftOf);
    if (copy !== inner) entries[key] = copy;
  }
  return value;
}
