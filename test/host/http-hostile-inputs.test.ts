import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { listen } from "../../engine/serve/http/http-listen.js";
import { SERVE_FIXTURE, serve } from "../support/services.js";
import { exchange, open, statuses, toolCallBytes } from "./raw-http.js";
import { seededDraws as random } from "../../engine/serve/stubs/fault-set.js";

describe("pipelining", () => {
  it("answers 60 pipelined requests on one connection one at a time, in order, each call committed once", async () => {
    const services = await serve(SERVE_FIXTURE);
    try {
      let raw = "";
      const expected: number[] = [];
      const ids: number[] = [];
      for (let i = 0; i < 60; i++) {
        if (i % 2 === 0) raw += `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${services.port}\r\n\r\n`;
        else {
          raw += toolCallBytes(services.port, "bump", {}, i);
          ids.push(i);
        }
        expected.push(200);
      }
      // A refusal closes the connection, so it comes last.
      raw += `TRACE / HTTP/1.1\r\nHost: 127.0.0.1:${services.port}\r\n\r\n`;
      expected.push(501);
      const { text } = await exchange(services.port, raw, { quietMs: 1_000, maxMs: 15_000 });
      expect(statuses(text)).toEqual(expected);
      expect([...text.matchAll(/"id":(\d+)/g)].map((m) => Number(m[1]))).toEqual(ids);
      await services.idle();
      expect(services.states.notes.counter).toBe(ids.length);
    } finally {
      await services.close();
    }
  });

  it("refuses a request past maxInFlight at once with 503 and Retry-After, and serves the rest", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const listening = await listen(
      async (request) => {
        if (new URL(request.url).pathname === "/slow") await gate;
        return new Response("ok");
      },
      { limits: { maxInFlight: 1 } },
    );
    try {
      const slow = fetch(`${listening.url}/slow`);
      await sleep(100);
      const refused = await fetch(`${listening.url}/fast`);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toMatchObject({ error: "busy" });
      release();
      expect((await slow).status).toBe(200);
      expect((await fetch(`${listening.url}/fast`)).status).toBe(200);
    } finally {
      await listening.close();
    }
  });

  it("holds at most 64 MiB of large model-request bodies at once: a burst past it answers 503, and the budget comes back", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const listening = await listen(async (request) => {
      const bytes = (await request.arrayBuffer()).byteLength;
      await gate;
      return new Response(String(bytes));
    });
    try {
      // Model paths take 8 MiB bodies before any route is looked up, whatever the session address.
      const url = `${listening.url}/s/any/models/openai/v1/chat/completions`;
      const body = () => new Uint8Array(8 * 1024 * 1024);
      const sent = Array.from({ length: 12 }, () =>
        fetch(url, { method: "POST", body: body() }).then(
          (response) => response.status,
          () => "closed",
        ),
      );
      // Each body held takes 7 MiB of the budget (its bytes past 1 MiB): nine fit at once, the rest are refused.
      await sleep(2_000);
      release();
      const outcomes = await Promise.all(sent);
      const served = outcomes.filter((outcome) => outcome === 200).length;
      expect(served).toBeGreaterThan(0);
      expect(served).toBeLessThanOrEqual(9);
      expect(outcomes.filter((outcome) => outcome !== 200).every((outcome) => outcome === 503 || outcome === "closed")).toBe(true);
      // Every request answered, the whole budget is free again.
      const again = await Promise.all(Array.from({ length: 9 }, () => fetch(url, { method: "POST", body: body() }).then((r) => r.status)));
      expect(again).toEqual(Array(9).fill(200));
    } finally {
      await listening.close();
    }
  });

  it("stops producing an answer its client does not read, and lets that client go past the stall timeout", async () => {
    let produced = 0;
    let cancelled = false;
    const chunk = new Uint8Array(64 * 1024).fill(120);
    const listening = await listen(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              produced += chunk.length;
              controller.enqueue(chunk);
            },
            cancel() {
              cancelled = true;
            },
          }),
        ),
      { limits: { stallTimeoutMs: 300 } },
    );
    const socket = await open(listening.port);
    try {
      socket.on("error", () => undefined);
      socket.pause();
      socket.write(`GET /endless HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      for (let waited = 0; !cancelled && waited < 10_000; waited += 50) await sleep(50);
      expect(cancelled).toBe(true);
      // What the kernel's buffers hold and one chunk more: nothing piles up in the process.
      expect(produced).toBeLessThan(64 * 1024 * 1024);
    } finally {
      socket.destroy();
      await listening.close();
    }
  });
});

describe("stalled requests", () => {
  const stalls: Array<[string, () => string]> = [
    ["mid-headers", () => "POST /notes/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty"],
    [
      "after the headers, before any body",
      () => "POST /notes/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n",
    ],
    ["mid-body", () => `POST /notes/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n${"{".repeat(500)}`],
    ["mid-chunk", () => "POST /health HTTP/1.1\r\nHost: 127.0.0.1\r\ntransfer-encoding: chunked\r\n\r\n400\r\nabc"],
  ];

  it.each(stalls)("answers a request stalled %s with 408 and closes it, answering others meanwhile", async (_name, bytes) => {
    const services = await serve(SERVE_FIXTURE, { http: { stallTimeoutMs: 300 } });
    try {
      const stalled = exchange(services.port, bytes(), { quietMs: 8_000, maxMs: 8_000 });
      expect((await fetch(`http://127.0.0.1:${services.port}/health`)).status).toBe(200);
      const { text, closedByServer } = await stalled;
      expect(statuses(text)).toEqual([408]);
      expect(closedByServer).toBe(true);
    } finally {
      await services.close();
    }
  });
});

describe("odd request lines", () => {
  const methods = ["GET", "POST", "HEAD", "DELETE", "OPTIONS", "PROPFIND", "TRACE", "TRACK", "CONNECT", "PRI", "G T", "get", ""];
  const targets = [
    "*",
    "/",
    "/health",
    "/notes/mcp",
    "/notes/admin/state",
    "http://127.0.0.1/health",
    "https://example.com:8443/notes/mcp?x=1",
    "HTTP://EXAMPLE.COM/health",
    "http://user:pw@127.0.0.1/health",
    "http://[::1/health",
    "ftp://example.com/health",
    "//evil.example/health",
    "/%zz/%00",
    "/\u00ff\u00fe",
    `/${"a".repeat(8_000)}`,
    "?x=1",
    "health",
    "/health#fragment",
    "",
  ];
  const versions = ["HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/0.9", "HTTP/1.1 extra", "http/1.1", ""];
  const hosts = [
    undefined,
    "",
    "127.0.0.1",
    "127.0.0.1:99999",
    "127.0.0.1:abc",
    "[::1",
    "a b",
    "user@x",
    "x/y",
    "x?y",
    "x:1:2",
    "999.1.1.1",
    "xn--",
    "example.com:0",
  ];

  it("answers 300 generated request lines with a status below 500 (501 for methods served nowhere) or a closed connection, never 500", async () => {
    const services = await serve(SERVE_FIXTURE);
    const next = random(20261130);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
    try {
      const cases = Array.from({ length: 300 }, () => {
        const host = next() < 0.5 ? "127.0.0.1" : pick(hosts);
        const headers = host === undefined ? "" : next() < 0.1 ? `Host: ${host}\r\nHost: other\r\n` : `Host: ${host}\r\n`;
        const body = next() < 0.3 ? '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' : "";
        const bodyHeaders = body ? `content-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${body.length}\r\n` : "";
        // Mostly well-formed lines, so most cases get past node:http's parser to the adapter.
        const method = next() < 0.7 ? pick(methods.slice(0, 9)) : pick(methods);
        const version = next() < 0.8 ? "HTTP/1.1" : pick(versions);
        return `${method} ${pick(targets)} ${version}\r\n${headers}${bodyHeaders}\r\n${body}`;
      });
      for (let i = 0; i < cases.length; i += 10) {
        const answers = await Promise.all(cases.slice(i, i + 10).map((raw) => exchange(services.port, raw, { quietMs: 300, maxMs: 5_000 })));
        answers.forEach(({ text }, j) => {
          const raw = cases[i + j];
          for (const status of statuses(text)) {
            if (status === 501) expect(raw, raw.slice(0, 120)).toMatch(/^(TRACE|TRACK|CONNECT) /);
            else expect(status, raw.slice(0, 120)).toBeLessThan(500);
          }
        });
      }
      expect((await fetch(`http://127.0.0.1:${services.port}/health`)).status).toBe(200);
    } finally {
      await services.close();
    }
  });
});
