import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowedOrigins } from "../../engine/serve/mcp/index.js";
import type { Services } from "../../engine/serve/host/start-services.js";
import { runCli, startServe } from "../support/cli-process.js";
import { serve, SERVE_FIXTURE } from "../support/services.js";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "browser-page", version: "1" } },
});

/** An initialize POST as a browser page would send it, with its Origin. */
function initialize(url: string, origin?: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (origin !== undefined) headers.origin = origin;
  return fetch(url, { method: "POST", headers, body: INITIALIZE });
}

describe("Origin validation on /<id>/mcp (the spec's DNS-rebinding defence)", () => {
  let services: Services;
  beforeAll(async () => {
    services = await serve(SERVE_FIXTURE, { allowedOrigins: ["https://app.example.com", "tools.example.org"] });
  });
  afterAll(() => services.close());

  it("refuses a foreign Origin with 403 and a JSON-RPC error, before any call runs", async () => {
    const before = await (await fetch(`${services.origin}/notes/admin/state`)).json();
    const call = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "create-note", arguments: { title: "rebound" } } });
    const response = await fetch(services.url("notes"), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        origin: "http://evil.example.com",
        "mcp-protocol-version": "2025-11-25",
      },
      body: call,
    });
    expect(response.status).toBe(403);
    const body = (await response.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    expect(body.error.message).toMatch(/^Invalid Origin: http:\/\/evil\.example\.com is not allowed/);
    expect(await (await fetch(`${services.origin}/notes/admin/state`)).json()).toEqual(before);
    expect(services.calls("notes")).toEqual([]);
  });

  it("serves loopback origins on any port, and requests with no Origin", async () => {
    for (const origin of [undefined, "http://localhost:5173", "http://127.0.0.1:9", "https://[::1]", "http://LOCALHOST"]) {
      const response = await initialize(services.url("notes"), origin);
      expect(response.status, String(origin)).toBe(200);
      await response.body?.cancel();
    }
  });

  it("serves an allowed origin exactly, and an allowed host name on any scheme and port", async () => {
    for (const origin of ["https://app.example.com", "https://APP.example.com:443", "http://tools.example.org:8080", "https://tools.example.org"]) {
      const response = await initialize(services.url("notes"), origin);
      expect(response.status, origin).toBe(200);
      await response.body?.cancel();
    }
    // The full origin pins its scheme and port; a look-alike host is someone else.
    for (const origin of ["http://app.example.com", "https://app.example.com:8443", "https://app.example.com.evil.test", "https://sub.tools.example.org"]) {
      expect((await initialize(services.url("notes"), origin)).status, origin).toBe(403);
    }
  });

  it("refuses an Origin that is not an origin: null (a sandboxed page), a file page, garbage", async () => {
    for (const origin of ["null", "file://", "not a url"]) {
      const response = await initialize(services.url("notes"), origin);
      expect(response.status, origin).toBe(403);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32000);
    }
  });

  it("refuses a foreign Origin on /health too: the check guards every route of the port", async () => {
    expect((await fetch(`${services.origin}/health`, { headers: { origin: "http://evil.example.com" } })).status).toBe(403);
    expect((await fetch(`${services.origin}/health`, { headers: { origin: "https://app.example.com" } })).status).toBe(200);
  });
});

describe("the allow-list's forms", () => {
  it("splits comma lists and refuses entries that are neither an origin nor a host name", () => {
    expect(parseAllowedOrigins(["https://a.example, b.example", " ", "*"])).toEqual(["https://a.example", "b.example", "*"]);
    for (const bad of ["https://a.example/path", "a.example:8080", "https://user:pw@a.example", "a.example/x", "http://"]) {
      expect(() => parseAllowedOrigins([bad]), bad).toThrow(/\[eval-simulate\] allowed origin/);
    }
  });

  it("turns the check off with *", async () => {
    const services = await serve(SERVE_FIXTURE, { allowedOrigins: ["*"] });
    try {
      const response = await initialize(services.url("notes"), "https://anything.example");
      expect(response.status).toBe(200);
      await response.body?.cancel();
    } finally {
      await services.close();
    }
  });
});

describe("eval-simulate serve --allow-origin and EVAL_SIMULATE_ALLOWED_ORIGINS, as real processes", () => {
  it("allows the origins of repeated flags and comma lists, and still refuses others", async () => {
    const served = await startServe([SERVE_FIXTURE, "--allow-origin", "https://a.example", "--allow-origin=b.example,https://c.example:8443"]);
    try {
      const url = `http://127.0.0.1:${served.port}/notes/mcp`;
      for (const origin of ["https://a.example", "http://b.example:3000", "https://c.example:8443", "http://localhost:3000"]) {
        const response = await initialize(url, origin);
        expect(response.status, origin).toBe(200);
        await response.body?.cancel();
      }
      expect((await initialize(url, "https://c.example")).status).toBe(403);
      expect((await initialize(url, "http://evil.example.com")).status).toBe(403);
    } finally {
      served.child.kill("SIGTERM");
      await served.exited;
    }
  });

  it("reads the allow-list from the environment, and a flag replaces it", async () => {
    const env = { EVAL_SIMULATE_ALLOWED_ORIGINS: "https://from-env.example" };
    const fromEnv = await startServe([SERVE_FIXTURE], env);
    const flagged = await startServe([SERVE_FIXTURE, "--allow-origin", "https://from-flag.example"], env);
    try {
      const envUrl = `http://127.0.0.1:${fromEnv.port}/notes/mcp`;
      const flagUrl = `http://127.0.0.1:${flagged.port}/notes/mcp`;
      const allowed = await initialize(envUrl, "https://from-env.example");
      expect(allowed.status).toBe(200);
      await allowed.body?.cancel();
      expect((await initialize(envUrl, "https://from-flag.example")).status).toBe(403);
      const flagAllowed = await initialize(flagUrl, "https://from-flag.example");
      expect(flagAllowed.status).toBe(200);
      await flagAllowed.body?.cancel();
      expect((await initialize(flagUrl, "https://from-env.example")).status).toBe(403);
    } finally {
      for (const served of [fromEnv, flagged]) served.child.kill("SIGTERM");
      await Promise.all([fromEnv.exited, flagged.exited]);
    }
  });

  it("refuses an allow-list entry it cannot read as a usage error, naming it", async () => {
    const { code, stderr } = await runCli(["serve", SERVE_FIXTURE, "--port", "0", "--allow-origin", "https://a.example/app"]);
    expect(code).toBe(2);
    expect(stderr).toContain('allowed origin "https://a.example/app" is not an origin');
  });
});
