// The conformance fake's own tests under vitest: the same as fakes.test.js (node:test), so either
// runner keeps the same responses.jsonl.
import { fileURLToPath } from "node:url";
import { loadFakes } from "eval-simulate";
import { checkRecipeFakes } from "eval-simulate/checks";
import { call, callTool, recording, withFakes } from "eval-simulate/testing";
import { afterAll, beforeAll, expect, test } from "vitest";

const MANIFEST = fileURLToPath(new URL("../fakes.yaml", import.meta.url));
const RECORD = fileURLToPath(new URL("./responses.jsonl", import.meta.url));
const CLOCK = "2026-10-01T09:00:00.000Z";
const options = { clock: CLOCK, record: RECORD };

const { globalSetup, globalTeardown } = recording(RECORD);
beforeAll(globalSetup);
afterAll(globalTeardown);

const loaded = loadFakes(MANIFEST, { clock: CLOCK });

type Item = { type: string; mimeType?: string; data?: string; resource?: { uri: string; mimeType: string; text: string } };
const contentOf = (result: { content?: unknown }) => result.content as Item[];

test("lists the served tools, each with a description, and the 2020-12 schema as captured", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    undefined,
    async ({ conformance }) => {
      const { tools } = await conformance.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        "test_simple_text",
        "test_image_content",
        "test_audio_content",
        "test_embedded_resource",
        "test_multiple_content_types",
        "test_tool_with_logging",
        "test_tool_with_progress",
        "test_error_handling",
        "test_sampling",
        "test_elicitation",
        "test_elicitation_sep1034_defaults",
        "test_elicitation_sep1330_enums",
        "json_schema_2020_12_tool",
      ]);
      for (const tool of tools) expect(tool.description, tool.name).toBeTruthy();
      const schema = tools.at(-1)!.inputSchema as Record<string, unknown>;
      expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(Object.keys(schema.$defs as object)).toEqual(["address"]);
      expect(schema.additionalProperties).toBe(false);
    },
    options,
  );
});

test("answers text, image, audio, an embedded resource and all three together", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    undefined,
    async ({ conformance }) => {
      expect(await call(conformance, "test_simple_text")).toBe("This is a simple text response for testing.");
      const image = contentOf(await conformance.callTool({ name: "test_image_content", arguments: {} }));
      expect(image.map((item) => [item.type, item.mimeType])).toEqual([["image", "image/png"]]);
      expect(Buffer.from(image[0].data!, "base64").subarray(1, 4).toString()).toBe("PNG");
      const audio = contentOf(await conformance.callTool({ name: "test_audio_content", arguments: {} }));
      expect(audio.map((item) => [item.type, item.mimeType])).toEqual([["audio", "audio/wav"]]);
      const resource = contentOf(await conformance.callTool({ name: "test_embedded_resource", arguments: {} }));
      expect(resource[0].resource).toEqual({ uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." });
      const mixed = contentOf(await conformance.callTool({ name: "test_multiple_content_types", arguments: {} }));
      expect(mixed.map((item) => item.type)).toEqual(["text", "image", "resource"]);
      expect(JSON.parse(mixed[2].resource!.text)).toEqual({ test: "data", value: 123 });
    },
    options,
  );
});

test("answers test_error_handling with a tool error", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    undefined,
    async ({ conformance }) => {
      await expect(call(conformance, "test_error_handling")).rejects.toThrow(/^This tool intentionally returns an error for testing$/);
    },
    options,
  );
});

test("holds arguments to the captured 2020-12 schema: $ref into $defs, no undeclared properties", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    undefined,
    async ({ conformance }) => {
      const args = { name: "Ada", address: { street: "1 Loop Rd", city: "Cupertino" } };
      expect(await call(conformance, "json_schema_2020_12_tool", args)).toBe(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`);
      const wrongRef = await callTool(conformance, "json_schema_2020_12_tool", { address: { city: 7 } });
      expect(wrongRef.isError).toBe(true);
      expect(wrongRef.text).toMatch(/^Input validation error: .*address\/city must be string/);
      const undeclared = await callTool(conformance, "json_schema_2020_12_tool", { nickname: "ada" });
      expect(undeclared.isError).toBe(true);
      expect(undeclared.text).toMatch(/must NOT have additional properties/);
    },
    options,
  );
});

test("does not serve test_reconnection, whose stream a fake would have to close and resume", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    undefined,
    async ({ conformance }) => {
      await expect(conformance.callTool({ name: "test_reconnection", arguments: {} })).rejects.toThrow(/Tool test_reconnection not found/);
    },
    options,
  );
});

test("serves the prompts from their templates, the resources and the completions", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    undefined,
    async ({ conformance }) => {
      const { prompts } = await conformance.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual([
        "test_simple_prompt",
        "test_prompt_with_arguments",
        "test_prompt_with_embedded_resource",
        "test_prompt_with_image",
      ]);
      const withArgs = await conformance.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "one", arg2: "two" } });
      expect(withArgs.messages[0].content).toEqual({ type: "text", text: "Prompt with arguments: arg1='one', arg2='two'" });
      const embedded = await conformance.getPrompt({ name: "test_prompt_with_embedded_resource", arguments: { resourceUri: "test://example-resource" } });
      expect((embedded.messages[0].content as Item).resource?.uri).toBe("test://example-resource");
      const image = await conformance.getPrompt({ name: "test_prompt_with_image" });
      expect(image.messages[0].content.type).toBe("image");
      const binary = await conformance.readResource({ uri: "test://static-binary" });
      expect(
        Buffer.from((binary.contents[0] as { blob: string }).blob, "base64")
          .subarray(1, 4)
          .toString(),
      ).toBe("PNG");
      const templated = await conformance.readResource({ uri: "test://template/123/data" });
      expect(JSON.parse((templated.contents[0] as { text: string }).text)).toEqual({ id: "123", templateTest: true, data: "Data for ID: 123" });
      const completed = await conformance.complete({
        ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
        argument: { name: "arg1", value: "pa" },
      });
      expect(completed.completion.values).toEqual(["paris", "park", "party"]);
    },
    options,
  );
});

checkRecipeFakes({ test, manifest: MANIFEST, clock: CLOCK, record: RECORD });
