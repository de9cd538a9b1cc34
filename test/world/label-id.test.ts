import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { LABEL_ID_NAMESPACE, labelId, uuidV5 } from "../../engine/author/world/index.js";

const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("labelId", () => {
  it("computes RFC 4122 version 5 UUIDs (the RFC's DNS-namespace vector)", () => {
    expect(uuidV5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "python.org")).toBe("886313e1-3b8a-5372-9b90-0c9aee199e5d");
  });

  it("derives its namespace as documented, from the URL namespace and urn:eval-simulate:label-id", () => {
    expect(uuidV5("6ba7b811-9dad-11d1-80b4-00c04fd430c8", "urn:eval-simulate:label-id")).toBe(LABEL_ID_NAMESPACE);
  });

  it("gives a v5-shaped id, the same one on every call", () => {
    const id = labelId("note-1");
    expect(id).toMatch(UUID_V5);
    expect(labelId("note-1")).toBe(id);
    expect(labelId("note-2")).not.toBe(id);
  });

  it("pins the ids Recipes' checks compare against, Unicode labels included", () => {
    expect(labelId("note-1")).toBe("250493e4-0764-5a06-8179-aad66f67757f");
    expect(labelId("alice")).toBe("ed6cfd81-971a-5e66-b369-0ce34e9d178b");
    expect(labelId("ünïcode ✓")).toBe("033dbc1a-f4fc-52e5-9fad-8a0a6c1ca8e8");
  });

  it("gives the same id in another process", () => {
    const script = `
      const { createHash } = require("node:crypto");
      const b = createHash("sha1").update(Buffer.from("${LABEL_ID_NAMESPACE.replace(/-/g, "")}", "hex")).update("note-1").digest();
      b[6] = (b[6] & 0x0f) | 0x50; b[8] = (b[8] & 0x3f) | 0x80;
      const h = b.subarray(0, 16).toString("hex");
      process.stdout.write([h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-"));`;
    expect(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })).toBe(labelId("note-1"));
  });

  it("refuses a label that is not a string", () => {
    expect(() => labelId(42 as unknown as string)).toThrow(/^\[eval-simulate\] labelId needs a string label/);
  });
});
