import type { Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { type ServeProcess, startServe } from "../support/cli-process.js";
import { connect, SERVE_FIXTURE } from "../support/services.js";
import { exchange, open, rssMiB, statuses, timed, toolCallBytes } from "../host/raw-http.js";

async function stop(serve: ServeProcess): Promise<void> {
  serve.child.kill("SIGTERM");
  await serve.exited;
}

describe("eval-simulate serve under hostile clients (a real process, loopback)", () => {
  it("keeps answering others, under 1 GB, while 50 clients pipeline 1,000 calls each and never read", async () => {
    const serve = await startServe([SERVE_FIXTURE], { EVAL_SIMULATE_STALL_TIMEOUT_MS: "1000" });
    const flood: Socket[] = [];
    try {
      // Warm: the first calls load and compile the handlers, which is not what is measured here.
      const warm = await connect(`http://127.0.0.1:${serve.port}/notes/mcp`);
      await warm.callTool({ name: "bump", arguments: {} });
      await warm.callTool({ name: "list-notes", arguments: { limit: 2 } });
      await warm.close();
      const payload = toolCallBytes(serve.port, "bump").repeat(1_000);
      for (let i = 0; i < 50; i++) {
        const socket = await open(serve.port);
        socket.on("error", () => undefined);
        socket.pause();
        socket.write(payload);
        flood.push(socket);
      }
      await sleep(500);
      const health = await timed(() => fetch(`http://127.0.0.1:${serve.port}/health`, { signal: AbortSignal.timeout(5_000) }));
      expect(health.value.status).toBe(200);
      expect(health.ms).toBeLessThan(1_000);
      const client = await connect(`http://127.0.0.1:${serve.port}/notes/mcp`);
      // A read: writes to one fake are serialised by design, so a write would wait its turn
      // behind the flood's writes however the port is shared.
      const call = await timed(() => client.callTool({ name: "list-notes", arguments: { limit: 2 } }, { timeout: 5_000 }));
      expect(call.value.isError, JSON.stringify(call.value.content)).toBeFalsy();
      expect(call.ms).toBeLessThan(1_000);
      await client.close();
      expect(rssMiB(serve.child.pid!)).toBeLessThan(1_024);
    } finally {
      for (const socket of flood) socket.destroy();
      await stop(serve);
    }
  });

  it("answers stalled 1 MiB uploads and unfinished headers 408 past the stall timeout, and closes them", async () => {
    const serve = await startServe([SERVE_FIXTURE], { EVAL_SIMULATE_STALL_TIMEOUT_MS: "500" });
    try {
      const head = `POST /notes/mcp HTTP/1.1\r\nHost: 127.0.0.1:${serve.port}\r\ncontent-type: application/json\r\ncontent-length: ${1024 * 1024}\r\n\r\n`;
      const uploads = Array.from({ length: 20 }, () => exchange(serve.port, head + "x".repeat(256 * 1024), { quietMs: 8_000, maxMs: 8_000 }));
      const slowHeaders = exchange(serve.port, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", { quietMs: 8_000, maxMs: 8_000 });
      expect((await fetch(`http://127.0.0.1:${serve.port}/health`)).status).toBe(200);
      for (const upload of await Promise.all(uploads)) {
        expect(statuses(upload.text)).toEqual([408]);
        expect(upload.closedByServer).toBe(true);
      }
      const slow = await slowHeaders;
      expect(statuses(slow.text)).toEqual([408]);
      expect(slow.closedByServer).toBe(true);
    } finally {
      await stop(serve);
    }
  });

  it("answers odd request lines and bad Hosts with their HTTP status, never 500", async () => {
    const serve = await startServe([SERVE_FIXTURE]);
    try {
      const port = serve.port;
      const cases: Array<[string, string, number]> = [
        ["TRACE", `TRACE / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 501],
        ["CONNECT", `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 501],
        ["GET *", `GET * HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 400],
        ["OPTIONS *", `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 204],
        // RFC 9112 §3.2.2: an origin server MUST accept the absolute-form.
        ["an absolute-form target", `GET http://127.0.0.1:${port}/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 200],
        ["an absolute-form target with credentials", `GET http://user:pw@127.0.0.1:${port}/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 400],
        ["a Host port out of range", "GET /health HTTP/1.1\r\nHost: 127.0.0.1:99999\r\n\r\n", 400],
        ["a Host port that is not a number", "GET /health HTTP/1.1\r\nHost: 127.0.0.1:abc\r\n\r\n", 400],
        ["a Host with a path", "GET /health HTTP/1.1\r\nHost: x/y\r\n\r\n", 400],
        ["a Host with a space", "GET /health HTTP/1.1\r\nHost: a b\r\n\r\n", 400],
        ["two Hosts", "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400],
        ["an MCP call under a bad Host", "GET /notes/mcp HTTP/1.1\r\nHost: [::1\r\n\r\n", 400],
        ["HTTP/1.0 without Host", "GET /health HTTP/1.0\r\n\r\n", 200],
      ];
      for (const [name, raw, status] of cases) {
        const { text } = await exchange(port, raw);
        expect(statuses(text), name).toEqual([status]);
      }
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    } finally {
      await stop(serve);
    }
  });
});
