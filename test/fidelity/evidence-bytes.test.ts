import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { redactJsonText } from "../../engine/serve/journal/json-text.js";
import { secretNames } from "../../engine/serve/journal/redact.js";
import { connect, serve } from "../support/services.js";

const MANIFEST = new URL("../fixtures/fidelity/fakes.yaml", import.meta.url).pathname;

let services: Services | undefined;
afterEach(async () => {
  await services?.close();
  services = undefined;
});

describe("the record and the journal keep the bytes the client received", () => {
  it("keeps a pretty-printed JSON answer as sent, with only the secret's value replaced", async () => {
    const record = join(mkdtempSync(join(tmpdir(), "eval-simulate-bytes-")), "calls.jsonl");
    services = await serve(MANIFEST, { record });
    const client = await connect(services.url("profiles"));
    const sent = (await client.callTool({ name: "get-profile-pretty", arguments: { id: "p1" } })) as { content: Array<{ text: string }> };
    const compact = (await client.callTool({ name: "get-profile", arguments: { id: "p1" } })) as { content: Array<{ text: string }> };
    await client.close();
    await services.idle();

    const received = sent.content[0].text;
    expect(received).toBe('{\n  "id": "p1",\n  "name": "Ada",\n  "apiToken": "sk-live-123"\n}');
    const expected = '{\n  "id": "p1",\n  "name": "Ada",\n  "apiToken": "[REDACTED]"\n}';
    const lines = readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[0].result.content[0].text).toBe(expected);
    expect(lines[0].result.structuredContent.apiToken).toBe("[REDACTED]");
    expect(lines[1].result.content[0].text).toBe(compact.content[0].text.replace("sk-live-123", "[REDACTED]"));

    const journal = services.calls("profiles");
    const output = JSON.parse(journal[0].output.text) as { content: Array<{ text: string }> };
    expect(output.content[0].text).toBe(expected);
    expect(journal[0].output.text).not.toContain("sk-live-123");
  });
});

describe("redacting JSON text in place", () => {
  const isSecret = secretNames(["accessCode"]);

  it("replaces secret members at any depth and leaves every other byte", () => {
    const text = '[ {"user":"a",  "password" :  "p\\"q", "nested": {"accessCode": {"a": [1, 2]}, "n": 1.50}}, {"token": null} ]';
    expect(redactJsonText(text, isSecret)).toBe(
      '[ {"user":"a",  "password" :  "[REDACTED]", "nested": {"accessCode": "[REDACTED]", "n": 1.50}}, {"token": null} ]',
    );
  });

  it("does not mistake a string value that looks like a secret name for a key", () => {
    expect(redactJsonText('{"kind": "token", "x": "password"}', isSecret)).toBe('{"kind": "token", "x": "password"}');
  });
});
