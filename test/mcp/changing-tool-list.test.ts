/**
 * A changing tool list (`listed:` on a tool): tools appear and go as the world answers calls,
 * a 2025-era session's client is sent `notifications/tools/list_changed` and re-lists, a call to
 * a tool no longer listed is refused as one the fake does not serve, and the journal agrees.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { connect, serve, textOf } from "../support/services.js";

const FIXTURE = new URL("../fixtures/protocol/changing.yaml", import.meta.url).pathname;

let services: Services;
beforeAll(async () => {
  services = await serve(FIXTURE);
});
afterAll(() => services.close());

describe("a changing tool list", () => {
  it("is re-listed on list_changed by a client that listens, and the served list and the journal agree", async () => {
    const client = await connect(services.url("notes"), "legacy");
    const seen: string[][] = [];
    let relisted: () => void = () => {};
    client.setNotificationHandler("notifications/tools/list_changed", async () => {
      seen.push((await client.listTools()).tools.map((tool) => tool.name));
      relisted();
    });
    const changed = () => new Promise<void>((resolve) => (relisted = resolve));
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["add-note", "slow-count"]);
      await client.callTool({ name: "add-note", arguments: { title: "one" } });
      let next = changed();
      await client.callTool({ name: "add-note", arguments: { title: "two" } });
      await next;
      expect(seen).toEqual([["add-note", "slow-count", "archive-notes"]]);
      next = changed();
      expect(textOf(await client.callTool({ name: "archive-notes", arguments: {} }))).toBe("archived");
      await next;
      expect(seen.at(-1)).toEqual(["add-note", "archive-notes"]);
      await expect(client.callTool({ name: "slow-count", arguments: {} })).rejects.toThrow(/Tool slow-count not found/);
      expect(services.calls("notes").map((call) => [call.name, call.status])).toEqual([
        ["add-note", "ok"],
        ["add-note", "ok"],
        ["archive-notes", "ok"],
        ["slow-count", "rpc_error"],
      ]);
    } finally {
      await client.close();
    }
  });

  it("lists by the calls of the world a request addresses: a new session starts from its first list", async () => {
    const session = await services.createSession();
    const client = await connect(session.url("notes"), "auto");
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["add-note", "slow-count"]);
      await expect(client.callTool({ name: "archive-notes", arguments: {} })).rejects.toThrow(/Tool archive-notes not found/);
    } finally {
      await client.close();
      await session.close();
    }
  });
});
