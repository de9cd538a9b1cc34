import { timingSafeEqual } from "node:crypto";

/**
 * Compares a secret a request carries with the expected one in constant time, so it cannot be
 * guessed a character at a time.
 *
 * @example sameSecret(request.headers.get("authorization"), `Bearer ${token}`);
 */
export function sameSecret(given: string | null | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
