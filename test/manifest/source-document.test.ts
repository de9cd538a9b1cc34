import { describe, expect, it } from "vitest";
import { SourceDocument } from "../../engine/author/source/source-document.js";

const SOURCE = `a:
  plain: foo bar x
  dq: "first line
    second x"
  sq: 'it''s
      two x'
  cont: "abc\\
      def x"
  emoji: "\\U0001F600 x"
  blank: "p

    q x"
  lit: |
    line one
      line two x
  folded: >
    alpha
    beta x
`;

describe("positions inside a YAML string", () => {
  const doc = new SourceDocument("f.yaml", SOURCE);
  const at = (key: string) => {
    const value = (doc.value as Record<string, Record<string, string>>).a[key];
    return doc.positionInString(["a", key], value.lastIndexOf("x"));
  };

  it.each([
    ["plain", 2, 18],
    ["dq", 4, 12],
    ["sq", 6, 11],
    ["cont", 8, 11],
    ["emoji", 9, 22],
    ["blank", 12, 7],
    ["lit", 15, 16],
    ["folded", 18, 10],
  ])("finds the character in a %s scalar at its line and column", (key, line, column) => {
    expect(at(key)).toEqual({ line, column });
  });

  it("names a duplicate key and points at it, even after a key with no value", () => {
    const duplicated = new SourceDocument("d.yaml", "a:\n  b:\n  b: 2\n");
    expect(duplicated.problems).toEqual([
      { code: "E_YAML_DUPLICATE_KEY", message: 'the key "b" appears twice in the same map', position: { line: 3, column: 3 } },
    ]);
  });

  it("reads merge keys, so a Recipe can share settings between tools", () => {
    const merged = new SourceDocument("m.yaml", "base: &base { reads: [notes] }\ntool:\n  <<: *base\n  writes: [notes]\n");
    expect(merged.value).toEqual({ base: { reads: ["notes"] }, tool: { reads: ["notes"], writes: ["notes"] } });
  });

  it("reports an alias that names no anchor at the alias", () => {
    const broken = new SourceDocument("g.yaml", "a: 1\nb: *nope\n");
    expect(broken.problems).toEqual([
      { code: "E_YAML_SYNTAX", message: "the alias *nope names no anchor (&nope) defined before it", position: { line: 2, column: 4 } },
    ]);
  });

  it("finds a repeated key in any mapping, at the repeat, and lets merge keys repeat", () => {
    const doc = new SourceDocument(
      "x.yaml",
      `base: &b { a: 1 }
other: &o { c: 1 }
list:
  - { id: 1, name: a, id: 2 }
  - <<: *b
    <<: *o
    "1": string key
    1: number key
`,
    );
    expect(doc.problems).toEqual([{ code: "E_YAML_DUPLICATE_KEY", message: 'the key "id" appears twice in the same map', position: { line: 4, column: 23 } }]);
  });
});
