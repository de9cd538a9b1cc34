// The conformance fake's own tests, run by node:test (`node --test examples/*/tests/*.test.js`):
// each served tool answers what the MCP conformance suite's scenarios check (so `npm test`
// covers the example without downloading the suite; `npm run conformance` runs the suite
// itself), recorded to responses.jsonl, then the checks every Recipe keeps (checkRecipeFakes).
// fakes.vitest.ts is the same file for vitest.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadFakes } from "eval-simulate";
import { checkRecipeFakes } from "eval-simulate/checks";
import { call, callTool, recording, withFakes } from "eval-simulate/testing";

const MANIFEST = fileURLToPath(new URL("../fakes.yaml", import.meta.url));
const RECORD = fileURLToPath(new URL("./responses.jsonl", import.meta.url));
const CLOCK = "2026-10-01T09:00:00.000Z";
const options = { clock: CLOCK, record: RECORD };

const { globalSetup, globalTeardown } = recording(RECORD);
before(globalSetup);
after(globalTeardown);

const loaded = loadFakes(MANIFEST, { clock: CLOCK });

test("lists the served tools, each with a description, and the 2020-12 schema as captured", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    undefined,
    async ({ conformance }) => {
      const { tools } = await conformance.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        [
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
        ],
      );
      for (const tool of tools) assert.ok(tool.description, tool.name);
      const schema = tools.at(-1).inputSchema;
      assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
      assert.deepEqual(Object.keys(schema.$defs), ["address"]);
      assert.equal(schema.additionalProperties, false);
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
      assert.equal(await call(conformance, "test_simple_text"), "This is a simple text response for testing.");
      const image = await conformance.callTool({ name: "test_image_content", arguments: {} });
      assert.deepEqual(
        image.content.map((item) => [item.type, item.mimeType]),
        [["image", "image/png"]],
      );
      assert.ok(Buffer.from(image.content[0].data, "base64").subarray(1, 4).equals(Buffer.from("PNG")));
      const audio = await conformance.callTool({ name: "test_audio_content", arguments: {} });
      assert.deepEqual(
        audio.content.map((item) => [item.type, item.mimeType]),
        [["audio", "audio/wav"]],
      );
      const resource = await conformance.callTool({ name: "test_embedded_resource", arguments: {} });
      assert.deepEqual(resource.content[0].resource, {
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      });
      const mixed = await conformance.callTool({ name: "test_multiple_content_types", arguments: {} });
      assert.deepEqual(
        mixed.content.map((item) => item.type),
        ["text", "image", "resource"],
      );
      assert.deepEqual(JSON.parse(mixed.content[2].resource.text), { test: "data", value: 123 });
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
      await assert.rejects(call(conformance, "test_error_handling"), {
        name: "ToolCallError",
        message: "This tool intentionally returns an error for testing",
      });
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
      assert.equal(await call(conformance, "json_schema_2020_12_tool", args), `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`);
      const wrongRef = await callTool(conformance, "json_schema_2020_12_tool", { address: { city: 7 } });
      assert.equal(wrongRef.isError, true);
      assert.match(wrongRef.text, /^Input validation error: .*address\/city must be string/);
      const undeclared = await callTool(conformance, "json_schema_2020_12_tool", { nickname: "ada" });
      assert.equal(undeclared.isError, true);
      assert.match(undeclared.text, /must NOT have additional properties/);
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
      await assert.rejects(conformance.callTool({ name: "test_reconnection", arguments: {} }), /Tool test_reconnection not found/);
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
      assert.deepEqual(
        prompts.map((prompt) => prompt.name),
        ["test_simple_prompt", "test_prompt_with_arguments", "test_prompt_with_embedded_resource", "test_prompt_with_image"],
      );
      const withArgs = await conformance.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "one", arg2: "two" } });
      assert.equal(withArgs.messages[0].content.text, "Prompt with arguments: arg1='one', arg2='two'");
      const embedded = await conformance.getPrompt({ name: "test_prompt_with_embedded_resource", arguments: { resourceUri: "test://example-resource" } });
      assert.equal(embedded.messages[0].content.resource.uri, "test://example-resource");
      const image = await conformance.getPrompt({ name: "test_prompt_with_image" });
      assert.equal(image.messages[0].content.type, "image");
      const binary = await conformance.readResource({ uri: "test://static-binary" });
      assert.equal(Buffer.from(binary.contents[0].blob, "base64").subarray(1, 4).toString(), "PNG");
      const templated = await conformance.readResource({ uri: "test://template/123/data" });
      assert.deepEqual(JSON.parse(templated.contents[0].text), { id: "123", templateTest: true, data: "Data for ID: 123" });
      const completed = await conformance.complete({
        ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
        argument: { name: "arg1", value: "pa" },
      });
      assert.deepEqual(completed.completion.values, ["paris", "park", "party"]);
    },
    options,
  );
});

checkRecipeFakes({ test, manifest: MANIFEST, clock: CLOCK, record: RECORD });
