import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type ServeProcess } from "../support/cli-process.js";
import { examples } from "../support/examples.js";
import { connect, textOf } from "../support/services.js";

const R = "[REDACTED]";
const temp = () => mkdtempSync(join(tmpdir(), "eval-simulate-redact-"));

/** A fake that answers what it is sent: as free text, and as pretty-printed JSON. */
function echoManifest(): string {
  const dir = temp();
  const open = { type: "object", additionalProperties: true };
  writeFileSync(
    join(dir, "tools.json"),
    JSON.stringify({
      tools: [
        { name: "echo", inputSchema: open },
        { name: "profile", inputSchema: open },
      ],
    }),
  );
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
      "      profile:",
      "        answer: { format: text }",
      "        jsonata: |",
      '          $string({ "user": $args.user, "password": $args.password, "accessToken": "tok-" & $args.user, "author": "Dana",',
      '                    "tokenizer": "bpe", "max_tokens": 256, "dsn": "postgres://" & $args.user & ":" & $args.password & "@db.example/app" }, true)',
      "",
    ].join("\n"),
  );
  return join(dir, "fakes.yaml");
}

/** The record's lines, parsed. */
const lines = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, any>);

describe("redaction in a served fake's journal and record", () => {
  let serve: ServeProcess;
  let record: string;
  let base: string;
  beforeAll(async () => {
    record = join(temp(), "calls.jsonl");
    serve = await startServe([echoManifest(), "--record", record]);
    base = `http://127.0.0.1:${serve.port}/desk`;
  });
  afterAll(async () => {
    serve.child.kill("SIGTERM");
    await serve.exited;
  });

  it("keeps an answer's text byte for byte but for its secret values, in the record and at /admin/calls", async () => {
    const client = await connect(`${base}/mcp`);
    const result = await client.callTool({ name: "profile", arguments: { user: "ada", password: "pw-answer-1" } });
    await client.close();
    const received = textOf(result);
    expect(received).toContain('\n  "password": "pw-answer-1",\n');
    const expected = received
      .replace('"password": "pw-answer-1"', `"password": "${R}"`)
      .replace('"accessToken": "tok-ada"', `"accessToken": "${R}"`)
      .replace("postgres://ada:pw-answer-1@", `postgres://ada:${R}@`);
    expect(expected).not.toContain("pw-answer-1");
    const line = lines(record).find((l) => l.tool === "profile")!;
    expect(line.result.content[0].text).toBe(expected);
    const { calls } = await (await fetch(`${base}/admin/calls?tool=profile`)).json();
    expect(JSON.parse(calls[0].output.text).content[0].text).toBe(expected);
  });

  it("redacts secret arguments by name in every style, and keeps innocent names", async () => {
    const client = await connect(`${base}/mcp`);
    const args = {
      tokens: ["t-1"],
      pwd: "s-pwd",
      credentials: { user: "ada", pass: "s-cred" },
      auth: "s-auth",
      aws_secret_access_key: "s-aws",
      jwt: "s-jwt",
      accessToken: "s-at",
      "access-token": "s-at2",
      ACCESS_TOKEN: "s-at3",
      "client.secret": "s-cs",
      author: "Dana",
      authority: "CA",
      keyboard: "qwerty",
      monkey: "george",
      tokenizer: "bpe",
      key: "SUP-101",
      max_tokens: 256,
    };
    await client.callTool({ name: "echo", arguments: { text: "ok", ...args } });
    await client.close();
    const recorded = lines(record).find((l) => l.tool === "echo" && l.args.text === "ok")!.args;
    const { calls } = await (await fetch(`${base}/admin/calls?tool=echo`)).json();
    const journaled = JSON.parse(calls.at(-1).input.text);
    for (const evidence of [recorded, journaled]) {
      for (const name of [
        "tokens",
        "pwd",
        "credentials",
        "auth",
        "aws_secret_access_key",
        "jwt",
        "accessToken",
        "access-token",
        "ACCESS_TOKEN",
        "client.secret",
      ]) {
        expect(evidence[name], name).toBe(R);
      }
      expect(evidence).toMatchObject({
        author: "Dana",
        authority: "CA",
        keyboard: "qwerty",
        monkey: "george",
        tokenizer: "bpe",
        key: "SUP-101",
        max_tokens: 256,
      });
    }
  });

  it("redacts pairs and URL passwords inside free text, and keeps the rest of it", async () => {
    const client = await connect(`${base}/mcp`);
    const text = "retry with password=hunter2&user=ada via https://bot:pw-url@ci.example/x; key: SUP-1 by the author";
    const result = await client.callTool({ name: "echo", arguments: { text } });
    await client.close();
    expect(textOf(result)).toBe(text);
    const expected = `retry with password=${R}&user=ada via https://bot:${R}@ci.example/x; key: SUP-1 by the author`;
    const line = lines(record).find((l) => l.tool === "echo" && l.result.content[0].text.startsWith("retry"))!;
    expect(line.args.text).toBe(expected);
    expect(line.result.content[0].text).toBe(expected);
    const admin = await (await fetch(`${base}/admin/calls?tool=echo`)).text();
    expect(admin).not.toContain("hunter2");
    expect(admin).not.toContain("pw-url");
    expect(admin).toContain("SUP-1 by the author");
  });
});

describe("redaction of an API fake's requests in a served process", () => {
  const GITHUB = examples().find(([name]) => name === "github")![1];

  it("redacts X-Auth and X-Session headers, key and sig parameters, and secrets in bodies that are not JSON", async () => {
    const record = join(temp(), "calls.jsonl");
    const serve = await startServe([GITHUB, "--record", record]);
    try {
      const api = `http://127.0.0.1:${serve.port}/github`;
      const headers = { "x-auth": "s-xauth", "x-session": "s-xsession", "x-author": "Dana", "content-type": "text/plain" };
      const unmatched = await fetch(`${api}/nowhere?key=s-key&sig=s-sig&keyboard=qwerty&page=2`, {
        method: "POST",
        headers,
        body: "password=s-form&author=Dana",
      });
      expect(unmatched.status).toBe(404);
      const truncated = await fetch(`${api}/repos/acme/widgets/issues`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"title": "x", "password": "s-trunc',
      });
      expect(truncated.status).toBe(400);
      const created = await fetch(`${api}/repos/acme/widgets/issues`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "CI at https://bot:s-userinfo@ci.example/run" }),
      });
      expect(created.status).toBe(201);
      const { calls } = await (await fetch(`${api}/admin/calls`)).json();
      // A committed call's `changes` are state values, kept unredacted (as the state file is) so
      // the judge can rebuild the world exactly; what the client sent and saw is redacted.
      const sentAndSeen = lines(record).map(({ changes: _changes, ...line }) => line);
      const evidence = [JSON.stringify(sentAndSeen), JSON.stringify(calls)];
      for (const text of evidence) {
        for (const secret of ["s-xauth", "s-xsession", "s-key", "s-sig", "s-form", "s-trunc", "s-userinfo"]) expect(text, secret).not.toContain(secret);
        for (const kept of ["qwerty", "x-author", "author=Dana", "https://bot:[REDACTED]@ci.example/run"]) expect(text, kept).toContain(kept);
      }
      const [first, second] = lines(record);
      expect(first.request).toMatchObject({
        query: { key: R, sig: R, keyboard: "qwerty" },
        headers: { "x-auth": R, "x-session": R, "x-author": "Dana" },
        body: `password=${R}&author=Dana`,
      });
      expect(second.request.body).toBe(`{"title": "x", "password": "${R}`);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });
});
