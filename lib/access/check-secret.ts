import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Compares a password or token in constant time. Both sides are hashed first,
 * so the comparison takes as long whatever the lengths, and the length of the
 * real secret does not leak either.
 */
export function secretMatches(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}
