import { describe, expect, it } from "vitest";
import type { McpFakeRuntime } from "../../engine/serve/mcp/index.js";
import { connect, ERAS, serveFake } from "./serve-fake.js";

/** A runtime of its own (not the host's pipeline) that answers whatever result it is told to. */
const answering = (result: Record<string, unknown>): McpFakeRuntime => ({
  id: "notes",
  tools: [{ name: "say", inputSchema: { type: "object" } }],
  callTool: async () => result,
});

describe.each(ERAS)("a runtime's malformed result, in the $era era", ({ mode }) => {
  it("reaches the client as a short tool error naming the problem, not the SDK's validation dump", async () => {
    const served = await serveFake(answering({ content: [{ type: "image", mimeType: "image/png" }] }));
    const client = await connect(served.url, mode);
    const result = await client.callTool({ name: "say", arguments: {} });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: '[eval-simulate] the fake "notes" answered a malformed result: content[0] (image) needs "data"' }],
    });
    await client.close();
    await served.close();
  });

  it("passes a well-formed result through unchanged", async () => {
    const served = await serveFake(answering({ content: [{ type: "resource_link", uri: "file:///a.txt", name: "a.txt" }] }));
    const client = await connect(served.url, mode);
    const result = await client.callTool({ name: "say", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "resource_link", uri: "file:///a.txt", name: "a.txt" }]);
    await client.close();
    await served.close();
  });
});
