import { describe, expect, it } from "vitest";
import { encodeToon } from "../../engine/author/contract/index.js";
import { redact, redactParams, redactResult, redactText, secretNames, TOO_DEEP } from "../../engine/serve/journal/redact.js";

const names = secretNames();
const R = "[REDACTED]";

describe("JSON text", () => {
  it("replaces only the secret values of pretty-printed JSON, keeping every other byte", () => {
    const text = [
      "{",
      '    "user" :  "ada",',
      '    "accessToken": "tok-1",',
      '    "tokens": ["a", "b"],',
      '    "credentials": { "user": "ada", "pass": "p-2" },',
      '    "aws_secret_access_key": "ak-3",',
      '    "note": "caf\\u00e9 \\/ 1.50e+3",',
      '    "amount": 1.50e+3,',
      '    "author": "Dana", "authority": "CA", "keyboard": "qwerty", "tokenizer": "bpe", "key": "SUP-101"',
      "}",
    ].join("\n");
    const expected = text
      .replace('"tok-1"', `"${R}"`)
      .replace('["a", "b"]', `"${R}"`)
      .replace('{ "user": "ada", "pass": "p-2" }', `"${R}"`)
      .replace('"ak-3"', `"${R}"`);
    expect(redactText(text, names)).toBe(expected);
  });

  it("keeps null, booleans and token counts under secret names, and redacts a numeric password", () => {
    const text = '{"password":1234,"token":null,"has_password":true,"max_tokens":256,"usage":{"total_tokens":12},"tokens":3}';
    expect(redactText(text, names)).toBe(`{"password":"${R}","token":null,"has_password":true,"max_tokens":256,"usage":{"total_tokens":12},"tokens":3}`);
  });

  it("finds secrets inside a string value: pairs and URL passwords", () => {
    const text = '{ "url": "https://admin:s3cret@db.example.com/x?key=AIza-1&q=monkey", "log": "sent password=hunter2 ok" }';
    expect(redactText(text, names)).toBe(`{ "url": "https://admin:${R}@db.example.com/x?key=${R}&q=monkey", "log": "sent password=${R} ok" }`);
  });

  it("returns the very same text when there is nothing to redact", () => {
    const text = '{\n  "author": "Dana",\n  "links": ["http://host:8080/a?page=2"]\n}';
    expect(redactText(text, names)).toBe(text);
  });

  it("walks JSON nested deeper than any stack without failing", () => {
    const text = `${"[".repeat(10_000)}{"token":"t"}${"]".repeat(10_000)}`;
    expect(redactText(text, names)).toBe(`${"[".repeat(10_000)}{"token":"${R}"}${"]".repeat(10_000)}`);
  });

  it("reads prefixed JSON around its prefix and suffix", () => {
    const answer = { format: "prefixed_json", prefix: "Saved! ", suffix: " (ok)" } as const;
    expect(redactText('Saved! {"id": 1, "secret": "s"} (ok)', names, answer as never)).toBe(`Saved! {"id": 1, "secret": "${R}"} (ok)`);
  });
});

describe("text that is not JSON", () => {
  it("redacts secrets in truncated JSON", () => {
    expect(redactText('{"user": "ada", "password": "hunter2", "bio": "tru', names)).toBe(`{"user": "ada", "password": "${R}", "bio": "tru`);
    expect(redactText('{"user": "ada", "token": "abc', names)).toBe(`{"user": "ada", "token": "${R}`);
  });

  it("redacts a form body's secret parameters in place, leaving its encoding as sent", () => {
    const form = "client_id=abc&client_secret=s3cr3t&key=k-1&sig=sg%2B2&keyboard=qwerty&q=a%20monkey&pwd=x";
    expect(redactText(form, names)).toBe(`client_id=abc&client_secret=${R}&key=${R}&sig=${R}&keyboard=qwerty&q=a%20monkey&pwd=${R}`);
  });

  it("redacts pairs in free text, header-like lines and quoted values", () => {
    expect(redactText("login failed for password=hunter2; retry", names)).toBe(`login failed for password=${R}; retry`);
    expect(redactText("Authorization: Bearer abc.def\nSession: Keynote\nPassword: hunter 2", names)).toBe(
      `Authorization: ${R}\nSession: Keynote\nPassword: ${R}`,
    );
    expect(redactText("your api_key: 'k 1', jwt = eyJ.x.y", names)).toBe(`your api_key: '${R}', jwt = ${R}`);
    expect(redactText('curl -H "Authorization: Bearer abc" https://x.example', names)).toBe(`curl -H "Authorization: ${R}" https://x.example`);
  });

  it("redacts the password of a URL's userinfo anywhere, and nothing else of the URL", () => {
    expect(redactText("connect postgres://admin:s3cret@db:5432/app now", names)).toBe(`connect postgres://admin:${R}@db:5432/app now`);
    expect(redactText("see https://user@host/x and http://host:8080/p", names)).toBe("see https://user@host/x and http://host:8080/p");
    // A URL password inside a secret's value: the value is redacted whole.
    expect(redactText("use token=https://u:pw@h/?a=b then", names)).toBe(`use token=${R} then`);
  });

  it("leaves innocent text alone", () => {
    const text = "The author's keyboard had a monkey on it.\nkey: value\ntokenizer: bpe\nauthority=CA&monkey=1\nSession: 2 of 5";
    expect(redactText(text, names)).toBe(text);
  });

  it("redacts secrets in TOON, and keeps TOON with none as it was", () => {
    const answer = { format: "toon" } as never;
    const secret = encodeToon({ users: [{ name: "ada", password: "hunter2" }] });
    expect(redactText(secret, names, answer)).not.toContain("hunter2");
    expect(redactText(secret, names, answer)).toContain("ada");
    const plain = encodeToon({ users: [{ name: "ada", author: "x" }] });
    expect(redactText(plain, names, answer)).toBe(plain);
  });

  it("finishes on megabyte inputs built to make a scanner backtrack", () => {
    for (const text of [
      "a=".repeat(500_000),
      "a".repeat(1_000_000),
      "http://".repeat(150_000),
      '"'.repeat(1_000_000),
      `password=${"x".repeat(1_000_000)}`,
      `x://u:${"p".repeat(1_000_000)}`,
    ]) {
      expect(typeof redactText(text, names)).toBe("string");
    }
  });
});

describe("values", () => {
  it("redacts secret fields at any depth and returns the same value when there is nothing to redact", () => {
    const clean = { user: "ada", list: [{ author: "x", n: 1 }] };
    expect(redact(clean, names)).toBe(clean);
    expect(redact({ a: { creds: { x: 1 } }, b: ["pwd=1"] }, names)).toEqual({ a: { creds: R }, b: [`pwd=${R}`] });
  });

  it("keeps a __proto__ key as data and cuts values nested too deep", () => {
    const value = JSON.parse('{"__proto__": {"token": "t"}}');
    const redacted = redact(value, names) as Record<string, unknown>;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(redacted, "__proto__")?.value).toEqual({ token: R });
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 100; i++) deep = (deep.x = {}) as Record<string, unknown>;
    expect(JSON.stringify(redact(root, names))).toContain(TOO_DEEP);
  });

  it("reads query parameters as parameters: key and sig are secrets there", () => {
    expect(redactParams({ key: "AIza", sig: "s", q: "monkey", keyboard: "k" }, names)).toEqual({ key: R, sig: R, q: "monkey", keyboard: "k" });
    expect(redact({ key: "SUP-101" }, names)).toEqual({ key: "SUP-101" });
  });

  it("redacts a tool result's text in place and its structured content, and keeps a clean result as it is", () => {
    const result = { content: [{ type: "text", text: '{\n  "token": "t",\n  "id": 1\n}' }], structuredContent: { token: "t", id: 1 } };
    expect(redactResult(result, names)).toEqual({
      content: [{ type: "text", text: `{\n  "token": "${R}",\n  "id": 1\n}` }],
      structuredContent: { token: R, id: 1 },
    });
    expect(result.content[0].text).toContain('"t"');
    const clean = {
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
    };
    expect(redactResult(clean, names)).toBe(clean);
  });
});

describe("JSON text and values agree", () => {
  it("redacts random JSON text in place exactly as it redacts the parsed value", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    const keys = ["token", "author", "pwd", 'a"b', "max_tokens", "\\", "credentials", "x-auth", "key", "note", "ünï", "__proto__", "auth"];
    const strings = ["plain", "password=hunter2", "https://u:p@h/x", 'quote " and \\ slash', "é\u2028", "key: v", "a=b&sig=c"];
    const value = (depth: number): unknown => {
      const kind = depth > 4 ? Math.floor(random() * 4) : Math.floor(random() * 6);
      if (kind === 0) return pick(strings);
      if (kind === 1) return Math.floor(random() * 1000) / 8;
      if (kind === 2) return pick([true, false, null]);
      if (kind === 3) return -0.5e-7;
      if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      const out: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 4); i > 0; i--)
        Object.defineProperty(out, pick(keys), { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
      return out;
    };
    for (let i = 0; i < 300; i++) {
      const v = value(0);
      for (const text of [JSON.stringify(v), JSON.stringify(v, null, i % 5)]) {
        expect(JSON.parse(redactText(text, names)), text).toEqual(JSON.parse(JSON.stringify(redact(JSON.parse(text), names))));
      }
    }
  });
});
