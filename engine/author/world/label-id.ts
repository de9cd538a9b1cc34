import { createHash } from "node:crypto";

// URL_NAMESPACE below is RFC 4122's namespace for URLs (and URNs),
// 6ba7b811-9dad-11d1-80b4-00c04fd430c8: used once, to derive eval-simulate's own.

/**
 * eval-simulate's namespace for label ids: `uuidV5(URL_NAMESPACE, "urn:eval-simulate:label-id")`.
 * Fixed forever: changing it would change every id every Recipe's checks compare against.
 */
export const LABEL_ID_NAMESPACE = "95eaffc4-cd5f-5008-b1b7-53aac2b02a1f";

/**
 * A stable UUID for a readable label: the same label gives the same id in every run, process
 * and machine, so scenarios and checks can both name a record by its label.
 *
 * @example labelId("note-1") // "250493e4-0764-5a06-8179-aad66f67757f"
 */
export function labelId(label: string): string {
  if (typeof label !== "string") {
    throw new TypeError(`[eval-simulate] labelId needs a string label, got ${JSON.stringify(label) ?? typeof label}`);
  }
  return uuidV5(LABEL_ID_NAMESPACE, label);
}

/**
 * A name-based UUID, version 5 (SHA-1), as RFC 4122 §4.3 defines it: the namespace's 16 bytes
 * and the name's UTF-8 hashed together, version and variant bits set.
 *
 * @example uuidV5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "python.org") // "886313e1-3b8a-5372-9b90-0c9aee199e5d"
 */
export function uuidV5(namespace: string, name: string): string {
  const hex = namespace.replace(/-/g, "");
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new TypeError(`[eval-simulate] ${JSON.stringify(namespace)} is not a UUID`);
  const bytes = createHash("sha1").update(Buffer.from(hex, "hex")).update(name, "utf8").digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const out = bytes.toString("hex");
  return `${out.slice(0, 8)}-${out.slice(8, 12)}-${out.slice(12, 16)}-${out.slice(16, 20)}-${out.slice(20)}`;
}
