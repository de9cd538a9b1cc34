/** Rewriting a manifest cache entry as a test tampers with it: its header line, then its body. */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

/** Rewrites an entry's body with `change`, with a checksum that matches the new body (or, `stale`, the old one). */
export function rewriteCacheEntry(
  file: string,
  change: (body: Record<string, unknown> & { value: string }) => void,
  options: { checksum?: "match" | "stale" } = {},
): void {
  const text = readFileSync(file, "utf8");
  const newline = text.indexOf("\n");
  const header = JSON.parse(text.slice(0, newline));
  const body = JSON.parse(text.slice(newline + 1));
  change(body);
  const written = JSON.stringify(body);
  if (options.checksum !== "stale") header.checksum = createHash("sha256").update(written).digest("hex");
  writeFileSync(file, `${JSON.stringify(header)}\n${written}`);
}
