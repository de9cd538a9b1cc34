import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkManifest } from "../../engine/author/manifest/load-manifest.js";
import type { Services } from "../../engine/serve/host/start-services.js";
import { connect, serve } from "../support/services.js";

const MANIFEST = new URL("../fixtures/fidelity/fakes.yaml", import.meta.url).pathname;
const ADA = { id: "p1", name: "Ada", apiToken: "sk-live-123" };

let services: Services | undefined;
afterEach(async () => {
  await services?.close();
  services = undefined;
});

async function callOn(scenario: string | undefined, tool: string, args: Record<string, unknown>) {
  services = await serve(MANIFEST, scenario === undefined ? {} : { scenario });
  const client = await connect(services.url("profiles"));
  try {
    return (await client.callTool({ name: tool, arguments: args })) as {
      content: Array<Record<string, unknown>>;
      structuredContent?: unknown;
      isError?: boolean;
    };
  } finally {
    await client.close();
  }
}

describe("the text beside structured content", () => {
  it("is compact JSON by default", async () => {
    const result = await callOn(undefined, "get-profile", { id: "p1" });
    expect(result.structuredContent).toEqual(ADA);
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(ADA) }]);
  });

  it("is JSON indented by 2 with text: json-pretty, as servers built on the SDK's examples write it", async () => {
    const result = await callOn(undefined, "get-profile-pretty", { id: "p1" });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(ADA, null, 2) }]);
    expect(result.structuredContent).toEqual(ADA);
  });

  it("is a JSONata expression's string, evaluated on the structured content", async () => {
    const result = await callOn(undefined, "greet", { id: "p1" });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    expect(result.structuredContent).toEqual({ id: "p1", name: "Ada" });
  });

  it("is what a TypeScript handler gives ctx.structured(value, { text })", async () => {
    const result = await callOn(undefined, "greet-ts", { id: "p1" });
    expect(result.content).toEqual([{ type: "text", text: "Hello, p1" }]);
    expect(result.structuredContent).toEqual({ id: "p1" });
  });
});

describe("content blocks", () => {
  it("a format: content JSONata handler answers text, image, audio, resource_link and embedded resource blocks", async () => {
    const result = await callOn(undefined, "snapshot", { id: "p1" });
    expect(result.isError).toBeFalsy();
    expect(result.content.map((block) => block.type)).toEqual(["text", "image", "audio", "resource_link", "resource"]);
    expect(result.content[3]).toEqual({ type: "resource_link", uri: "profiles://p1/card", name: "card" });
    expect(result.content[4]).toEqual({ type: "resource", resource: { uri: "profiles://all", mimeType: "application/json", text: "{}" } });
  });

  it("one block (or a string) is a one-block answer", async () => {
    expect((await callOn(undefined, "logo", {})).content).toEqual([{ type: "text", text: "no logo" }]);
  });

  it("a stub answers content blocks as they are", async () => {
    const result = await callOn("stubbed", "logo", {});
    expect(result.content).toEqual([
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "resource_link", uri: "profiles://p1/card", name: "card", mimeType: "text/plain" },
    ]);
  });
});

describe("validate checks answer texts and content blocks", () => {
  function variant(edit: (text: string) => string): string {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-fidelity-"));
    const source = new URL("../fixtures/fidelity/", import.meta.url).pathname;
    for (const file of ["tools.json", "handlers.ts"]) writeFileSync(join(dir, file), readFileSync(join(source, file)));
    writeFileSync(join(dir, "fakes.yaml"), edit(readFileSync(join(source, "fakes.yaml"), "utf8")));
    return join(dir, "fakes.yaml");
  }
  const codes = async (file: string) => (await checkManifest(file)).diagnostics.map((d) => [d.code, d.line, d.message]);

  it("refuses a format on a tool whose capture states an outputSchema, and text on one without", async () => {
    const file = variant((t) =>
      t
        .replace("answer: { text: json-pretty }", "answer: { format: json, text: json-pretty }")
        .replace("answer: { format: content }\n        jsonata: >-", "answer: { format: content, text: json }\n        jsonata: >-"),
    );
    const found = await codes(file);
    expect(found).toContainEqual(["E_ANSWER_FORBIDDEN", 23, expect.stringMatching(/may only say how the text beside it is written/)]);
    expect(found).toContainEqual(["E_ANSWER_INVALID", 33, expect.stringMatching(/`text` goes with a tool whose capture states an outputSchema/)]);
  });

  it("places a syntax error in a text expression at its line and column", async () => {
    const { diagnostics } = await checkManifest(variant((t) => t.replace(`'"Hello, " & name & "!"'`, `'"Hello, " & name &'`)));
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([["E_JSONATA_SYNTAX", 27]]);
  });

  it("names each block of a stub's content that MCP does not carry", async () => {
    const { diagnostics } = await checkManifest(
      variant((t) =>
        t.replace(
          '- { type: image, data: "iVBORw0KGgo=", mimeType: image/png }',
          '- { type: video, data: "x" }\n            - { type: image, data: "not base64!" }',
        ),
      ),
    );
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["E_STUB", 'content[0] has type "video"; a content block is one of text, image, audio, resource_link, resource'],
      ["E_STUB", 'content[1] (image) needs "mimeType": a string'],
      ["E_STUB", "content[1] (image) data is not base64"],
    ]);
  });

  it("answers a JSONata content handler's value that is not content blocks as a tool error", async () => {
    const file = variant((t) => t.replace(`jsonata: '{ "type": "text", "text": "no logo" }'`, `jsonata: '{ "type": "picture" }'`));
    services = await serve(file);
    const client = await connect(services.url("profiles"));
    const result = (await client.callTool({ name: "logo", arguments: {} })) as { content: Array<{ text: string }>; isError?: boolean };
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/is not MCP content: content\[0\] has type "picture"/);
  });
});
