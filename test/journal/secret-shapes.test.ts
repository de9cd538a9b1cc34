import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { redact, redactResult, redactText, secretNames } from "../../engine/serve/journal/redact.js";
import { connect, serve, textOf } from "../support/services.js";

const names = secretNames();
const R = "[REDACTED]";

// Shaped like the real thing, made of parts so no scanner takes this file for a leak.
const PEM_BODY = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK";
const JWT = ["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"].join(
  ".",
);

/** Each shape: how it reads, the value, and the part of it that is the secret. */
const SHAPES: Array<[string, string, string?]> = [
  ["an OpenAI key (sk-…)", "sk-" + "Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12Wx34"],
  ["an OpenAI project key (sk-proj-…)", "sk-proj-" + "Zx9_Yw8-Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe"],
  ["an Anthropic key (sk-ant-…)", "sk-ant-api03-" + "Qw3rTy_uIoP-aSdFgHjKl1234567890zXcVbNm-AA"],
  ["a Stripe secret key (sk_live_…)", "sk_live_" + "51HbQ2kLmN0pQrStUvWxYz0123"],
  ["a GitHub token (ghp_…)", "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"],
  ["a GitHub OAuth token (gho_…)", "gho_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"],
  ["a fine-grained GitHub token (github_pat_…)", "github_pat_" + "11AAAAAAA0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTu"],
  ["a Slack bot token (xoxb-…)", "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"],
  ["a Slack user token (xoxp-…)", "xoxp-" + "123456789012-123456789012-1234567890123-0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d"],
  ["a Slack app token (xoxa-…)", "xoxa-" + "2-123456789012-1234567890123-abcdef0123456789"],
  ["an AWS access key id (AKIA…)", "AKIA" + "IOSFODNN7EXAMPLE"],
  ["an AWS temporary key id (ASIA…)", "ASIA" + "Y34FZKBOKMUTVV7A"],
  ["a PEM private key", `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`],
  ["an OpenSSH private key", `-----BEGIN OPENSSH PRIVATE KEY-----\n${PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----`],
  ["a JWT", JWT],
  ["Bearer <token> in free text", "Bearer 8f14e45fceea167a5a36dedd4bea2543", "8f14e45fceea167a5a36dedd4bea2543"],
];

const redacted = (value: string, secret = value) => value.replace(secret, R);

describe("values shaped like secrets, whatever their name", () => {
  it.each(SHAPES)("redacts %s in a JSON value, in free text and in JSON text in place", (_label, value, secret = value) => {
    expect(redact({ note: value, id: "task-42", nested: [{ memo: `see ${value}` }] }, names)).toEqual({
      note: redacted(value, secret),
      id: "task-42",
      nested: [{ memo: `see ${redacted(value, secret)}` }],
    });
    expect(redactText(`deploy with ${value} now`, names)).toBe(`deploy with ${redacted(value, secret)} now`);
    const text = `{\n  "note" :  ${JSON.stringify(`see ${value}`)},\n  "id": "sku-123",\n  "n": 1.50e+3\n}`;
    expect(redactText(text, names)).toBe(text.replace(JSON.stringify(`see ${value}`), JSON.stringify(`see ${redacted(value, secret)}`)));
  });

  it("redacts a private key cut before its END line to the end of the text", () => {
    const cut = `key: x\n-----BEGIN PRIVATE KEY-----\n${PEM_BODY.slice(0, 40)}`;
    expect(redactText(cut, names)).toBe(`key: x\n${R}`);
  });

  it("redacts every secret of a text that holds several, keeping what lies between them", () => {
    const sk = SHAPES[0][1];
    const gh = SHAPES[4][1];
    expect(redactText(`a ${sk} b ${gh},${JWT};`, names)).toBe(`a ${R} b ${R},${R};`);
    expect(redactText(`Authorization: Bearer ${sk}`, names)).toBe(`Authorization: ${R}`);
  });
});

describe("texts made of nothing but a shape's beginning", () => {
  // Read once each: a scanner that went back over what it read would take minutes on these.
  it.each([
    ["eyJ", "eyJ"],
    ["an unfinished JWT", `eyJ${"a".repeat(12)}.eyJ${"b".repeat(12)} `],
    ["sk-", "sk-"],
    ["short sk- keys", " sk-abcdefghij"],
    ["Bearer", "Bearer "],
    ["certificates", "-----BEGIN CERTIFICATE-----"],
    ["ghp_", " ghp_"],
    ["xoxb-", " xoxb-"],
    ["AKIA", ` AKIA${"A".repeat(15)}`],
  ])("comes back as it was: 1 MiB of %s", (_label, unit) => {
    const text = unit.repeat(Math.ceil((1 << 20) / unit.length));
    expect(redactText(text, names)).toBe(text);
    const json = JSON.stringify({ v: text });
    expect(redactText(json, names)).toBe(json);
  });

  it("redacts a private key with no END line once, however many BEGIN lines follow", () => {
    const text = `x ${"-----BEGIN PRIVATE KEY-----".repeat(40_000)}`;
    expect(redactText(text, names)).toBe(`x ${R}`);
  });
});

describe("ordinary values that share a prefix with a secret", () => {
  const ORDINARY = [
    "sku-123",
    "task-42",
    "skip",
    "skipped the ghost",
    "desk-lamp-2000",
    "risk-free",
    "task-sk-1234567890abcdefghijkl",
    "sk-learn-tutorial-for-absolute-beginners",
    "xoxo-hugs-and-kisses-from-paris",
    "ghp_short",
    "gh_pages",
    "AKIAS",
    "AKIAIOSFODNN7EXAMPLEX",
    "123e4567-e89b-12d3-a456-426614174000",
    "e83c5163316f89bfbde7d9ab23ca2e25604af290",
    "01ARZ3NDEKTSV4RRFFQ69G5FAV",
    "eyJ",
    "eyJhbGciOiJIUzI1NiJ9",
    "https://github.com/octo/hello/blob/main/README.md",
    "the bearer of this note",
    "Bearer authentication is described in RFC 6750",
    "Bearer tokens expire",
    "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUJ\n-----END CERTIFICATE-----",
  ];

  it.each(ORDINARY)("keeps %j", (value) => {
    const object = { note: value, id: value };
    expect(redact(object, names)).toBe(object);
    expect(redactText(`see ${value} here`, names)).toBe(`see ${value} here`);
    const text = JSON.stringify({ note: value }, null, 2);
    expect(redactText(text, names)).toBe(text);
  });

  it("keeps base64 images and audio in content blocks as they are", () => {
    const data = Buffer.from(Array.from({ length: 48_000 }, (_, k) => (k * 2654435761) % 256)).toString("base64");
    const result = {
      content: [
        { type: "image", data, mimeType: "image/png" },
        { type: "audio", data, mimeType: "audio/wav" },
        { type: "text", text: "a chart" },
      ],
    };
    expect(redactResult(result, names)).toBe(result);
  });
});

/** A fake that answers the text it is sent. */
function echoManifest(): string {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-shapes-"));
  writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools: [{ name: "echo", inputSchema: { type: "object", additionalProperties: true } }] }));
  writeFileSync(
    join(dir, "fakes.yaml"),
    [
      "version: 1",
      "servers:",
      "  desk:",
      "    captured: tools.json",
      "    tools:",
      "      echo:",
      "        answer: { format: text }",
      "        jsonata: '$args.text'",
      "",
    ].join("\n"),
  );
  return join(dir, "fakes.yaml");
}

describe("key-shaped values in a served fake's journal and record", () => {
  let services: Services;
  let record: string;
  beforeAll(async () => {
    record = join(mkdtempSync(join(tmpdir(), "eval-simulate-shapes-")), "calls.jsonl");
    services = await serve(echoManifest(), { record });
  });
  afterAll(() => services.close());

  it.each(SHAPES)("keeps %s out of both, under an innocent name, in free text and in a JSON answer", async (_label, value, secret = value) => {
    const note = `deploy with ${value} now`;
    const text = JSON.stringify({ note: value, id: "task-42" }, null, 2);
    const client = await connect(services.url("desk"));
    const result = await client.callTool({ name: "echo", arguments: { text, note, plain: value } });
    await client.close();
    expect(textOf(result)).toBe(text);
    const kept = {
      note: redacted(note, secret),
      text: JSON.stringify({ note: redacted(value, secret), id: "task-42" }, null, 2),
      plain: redacted(value, secret),
    };
    const line = readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .at(-1);
    expect(line.args).toEqual(kept);
    expect(line.result.content[0].text).toBe(kept.text);
    const entry = services.calls("desk").at(-1)!;
    expect(JSON.parse(entry.input.text)).toEqual(kept);
    expect(JSON.parse(entry.output.text).content[0].text).toBe(kept.text);
    for (const evidence of [JSON.stringify(line), JSON.stringify(entry)]) expect(evidence).not.toContain(secret.split("\n")[1] ?? secret);
  });

  it("keeps PINs and one-time codes out of both, by name in any style and in free text", async () => {
    const client = await connect(services.url("desk"));
    await client.callTool({
      name: "echo",
      arguments: { text: "your PIN: 9876 and otp=424242", pin: 4321, cardPin: "0000", otp_code: "135790", "X-OTP": "246801", spin: "left" },
    });
    await client.close();
    const kept = { text: `your PIN: ${R} and otp=${R}`, pin: R, cardPin: R, otp_code: R, "X-OTP": R, spin: "left" };
    const line = readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .at(-1);
    expect(line.args).toEqual(kept);
    expect(line.result.content[0].text).toBe(kept.text);
    expect(JSON.parse(services.calls("desk").at(-1)!.input.text)).toEqual(kept);
  });
});
