/**
 * A session's resource subscriptions under a storm of commits: the commits that land while a
 * check is reading are checked once after it, not once each, so a client's 100 subscriptions
 * cost at most two reads each however fast its world commits.
 */
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, Server } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import type { McpFakeRuntime } from "../../engine/serve/mcp/fake-runtime.js";
import { subscribeHandlers } from "../../engine/serve/mcp/resource-subscriptions.js";

/** Waits until `value()` has stayed the same over ten turns of the event loop's timers. */
async function settled(value: () => number): Promise<number> {
  let last = -1;
  let same = 0;
  while (same < 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    const now = value();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return last;
}

describe("resource subscriptions under a storm of commits", () => {
  it("checks the commits made while a check reads once after it, not once each", async () => {
    let reads = 0;
    let release: () => void = () => {};
    let gate: Promise<void> | undefined;
    let commit: () => void = () => {};
    const fake = {
      id: "notes",
      tools: [],
      callTool: async () => ({ content: [] }),
      async readResource() {
        reads++;
        await gate;
        return { contents: [{ uri: "notes://all", text: String(reads) }] };
      },
      watch(_request: Request | undefined, onCommit: () => void) {
        commit = onCommit;
        return () => {};
      },
    } as unknown as McpFakeRuntime;
    const server = new Server({ name: "notes", version: "1" }, { capabilities: { resources: { subscribe: true } } });
    subscribeHandlers(fake, server);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "storm", version: "1" }, { versionNegotiation: { mode: "legacy" } });
    await client.connect(clientSide);
    try {
      await client.subscribeResource({ uri: "notes://all" });
      expect(reads).toBe(1);
      // The first check's read waits at the gate while fifty more commits land.
      gate = new Promise<void>((resolve) => (release = resolve));
      commit();
      expect(await settled(() => reads)).toBe(2);
      for (let i = 0; i < 50; i++) commit();
      release();
      gate = undefined;
      // The subscription's first read, the check that waited, and one check for the commits behind it.
      expect(await settled(() => reads)).toBe(3);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
