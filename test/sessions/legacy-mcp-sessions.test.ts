/**
 * 2025-era MCP sessions (`sessions: true`) are kept per fake for the whole host, up to a cap: a
 * trial that opens session after session makes room by ending its own, never another trial's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { connect, serve } from "../support/services.js";

const FIXTURE = new URL("../fixtures/protocol/fakes.yaml", import.meta.url).pathname;

let services: Services;
beforeAll(async () => {
  services = await serve(FIXTURE);
});
afterAll(async () => {
  await services.close();
});

const initialize = (url: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
    }),
  });

describe("2025-era MCP sessions shared by the trials of one host", { timeout: 120_000 }, () => {
  it("keeps a trial's session open while another trial opens more sessions than the host keeps", async () => {
    const victim = await services.createSession({ secret: true });
    const flooder = await services.createSession({ secret: true });
    const client = await connect(victim.url("notes"), "legacy");
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      // Past the host's 256 sessions per fake, one initialize at a time.
      for (let i = 0; i < 300; i++) {
        const response = await initialize(flooder.url("notes"));
        expect(response.status).toBe(200);
        await response.body?.cancel();
      }
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
      await victim.close();
      await flooder.close();
    }
  });
});
