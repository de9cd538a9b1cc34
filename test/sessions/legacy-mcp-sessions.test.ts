/**
 * 2025-era MCP sessions (`sessions: true`) are kept per fake for the whole host, up to a cap: a
 * trial that opens session after session makes room by ending its own, never another trial's;
 * and a trial's end (its session of the host freed) ends its MCP sessions, and their hold on its world.
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

/** Reads a stream to its end, or says it is still open after `limitMs` (an upper bound, never a measurement). */
async function ended(body: ReadableStream<Uint8Array>, limitMs: number): Promise<"ended" | "still open"> {
  const reader = body.getReader();
  let timer: NodeJS.Timeout | undefined;
  const open = new Promise<"still open">((resolve) => (timer = setTimeout(() => resolve("still open"), limitMs)));
  const read = (async () => {
    for (;;) if ((await reader.read()).done) return "ended" as const;
  })();
  try {
    return await Promise.race([read, open]);
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
}

describe("2025-era MCP sessions shared by the trials of one host", { timeout: 120_000 }, () => {
  it("ends a trial's MCP sessions with the trial's session: its standing GET stream ends", async () => {
    const trial = await services.createSession({ secret: true });
    const url = trial.url("notes");
    const opened = await initialize(url);
    const id = opened.headers.get("mcp-session-id")!;
    await opened.body?.cancel();
    const headers = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
    const initialized = await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(initialized.status).toBe(202);
    const stream = await fetch(url, { headers: { ...headers, accept: "text/event-stream" } });
    expect(stream.status).toBe(200);
    await trial.close();
    expect(await ended(stream.body!, 20_000)).toBe("ended");
  });

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
