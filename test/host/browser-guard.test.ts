import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AllowedHostError, parseAllowedHosts } from "../../engine/serve/host/browser-guard.js";
import { sidecarOptions } from "../../engine/serve/host/sidecar.js";
import type { Services } from "../../engine/serve/host/start-services.js";
import { GITHUB } from "../api/serve-api.js";
import { runCli, startServe } from "../support/cli-process.js";
import { serve, SERVE_FIXTURE } from "../support/services.js";

const TOKEN = "guard-secret";
const AUTH = { authorization: `Bearer ${TOKEN}` };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): unknown;
}

/** One request over a real connection, with whatever Host and headers a browser (or rebinding) would send. */
function send(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, method: options.method ?? "GET", headers: { host: `127.0.0.1:${port}`, ...options.headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "1" } },
});
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const CREATE_NOTE = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "create-note", arguments: { title: "rebound" } } });

describe("a rebound host name (DNS rebinding) on every route of the port", () => {
  let services: Services;
  beforeAll(async () => {
    services = await serve(SERVE_FIXTURE, { adminToken: TOKEN, inspect: true });
  });
  afterAll(() => services.close());

  it("refuses Host: evil.example on the session, admin, inspector and health routes with 403 and a JSON body", async () => {
    const routes: Array<[string, string]> = [
      ["GET", "/sessions"],
      ["POST", "/sessions"],
      ["GET", "/notes/admin/state"],
      ["GET", "/_inspect/worlds.json"],
      ["GET", "/_inspect"],
      ["GET", "/health"],
    ];
    for (const [method, path] of routes) {
      const answer = await send(services.port, path, {
        method,
        headers: { host: `evil.example:${services.port}`, ...AUTH, "content-type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
      });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.headers["content-type"]).toBe("application/json");
      expect(answer.json()).toMatchObject({
        error: "invalid_host",
        message: expect.stringMatching(/^Invalid Host: evil\.example is not a name this server answers to/),
      });
    }
    // Nothing was created, nothing was listed.
    expect((await send(services.port, "/sessions", { headers: AUTH })).json()).toMatchObject({ sessions: [] });
  });

  it("refuses it on an MCP endpoint as a JSON-RPC error, before any call runs", async () => {
    const answer = await send(services.port, "/notes/mcp", {
      method: "POST",
      headers: { ...MCP_HEADERS, "mcp-protocol-version": "2025-11-25", host: "evil.example" },
      body: CREATE_NOTE,
    });
    expect(answer.status).toBe(403);
    expect(answer.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000, message: expect.stringMatching(/^Invalid Host: evil\.example/) } });
    expect(services.calls("notes")).toEqual([]);
  });

  it("serves the loopback names, *.localhost and IP literals, on any port", async () => {
    for (const host of ["127.0.0.1", "localhost:9", "LOCALHOST", "localhost.", "[::1]:7353", "app.localhost", "10.0.0.7:80"]) {
      const answer = await send(services.port, "/health", { headers: { host } });
      expect(answer.status, host).toBe(200);
    }
  });

  it("refuses a single-label name and a look-alike on a loopback bind", async () => {
    for (const host of ["fakes", "localhost.evil.example", "127.0.0.1.evil.example", "evil.example."]) {
      expect((await send(services.port, "/health", { headers: { host } })).status, host).toBe(403);
    }
  });
});

describe("allowed hosts", () => {
  it("serves the listed names, `.example.com` for the name and its subdomains, and `*` for every name", async () => {
    const services = await serve(SERVE_FIXTURE, { allowedHosts: ["fakes.internal", ".svc.example"] });
    try {
      for (const host of ["fakes.internal:7353", "FAKES.internal", "svc.example", "a.b.svc.example"]) {
        expect((await send(services.port, "/health", { headers: { host } })).status, host).toBe(200);
      }
      for (const host of ["other.internal", "xsvc.example", "fakes.internal.evil.example"]) {
        expect((await send(services.port, "/health", { headers: { host } })).status, host).toBe(403);
      }
    } finally {
      await services.close();
    }
    const open = await serve(SERVE_FIXTURE, { allowedHosts: ["*"] });
    try {
      expect((await send(open.port, "/health", { headers: { host: "evil.example" } })).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it("serves every single-label name (a compose service, a container) when the port listens beyond loopback", async () => {
    const services = await serve(SERVE_FIXTURE, { host: "0.0.0.0" });
    try {
      expect((await send(services.port, "/health", { headers: { host: `fakes:${services.port}` } })).status).toBe(200);
      expect((await send(services.port, "/health", { headers: { host: "evil.example" } })).status).toBe(403);
    } finally {
      await services.close();
    }
  });

  it("serves an API fake by the real API's Host it answers for", async () => {
    const services = await serve(GITHUB);
    try {
      const answer = await send(services.port, "/repos/octo/hello/issues/1", { headers: { host: "api.github.com" } });
      expect(answer.status).toBe(200);
      expect(answer.json()).toMatchObject({ number: 1 });
      expect((await send(services.port, "/repos/octo/hello/issues/1", { headers: { host: "api.github.com.evil.example" } })).status).toBe(403);
    } finally {
      await services.close();
    }
  });

  it("reads host names, a leading dot or * and refuses ports, paths and schemes", () => {
    expect(parseAllowedHosts(["fakes.internal, .svc.example", " ", "*"])).toEqual(["fakes.internal", ".svc.example", "*"]);
    for (const bad of ["fakes:7353", "http://fakes", "fakes/x", "user@fakes", "a b", "..x", "."]) {
      expect(() => parseAllowedHosts([bad]), bad).toThrow(AllowedHostError);
    }
    expect(() => parseAllowedHosts(["fakes:7353"])).toThrow(/^\[eval-simulate\] allowed host "fakes:7353"/);
  });

  it("takes --allow-host on serve, repeated or as a comma list, the flag winning over EVAL_SIMULATE_ALLOWED_HOSTS", async () => {
    const served = await startServe([SERVE_FIXTURE, "--allow-host", "a.example", "--allow-host=.b.example,c.example"], {
      EVAL_SIMULATE_ALLOWED_HOSTS: "env.example",
    });
    try {
      for (const host of ["a.example", "x.b.example", "c.example:80"])
        expect((await send(served.port, "/health", { headers: { host } })).status, host).toBe(200);
      for (const host of ["env.example", "evil.example"]) expect((await send(served.port, "/health", { headers: { host } })).status, host).toBe(403);
    } finally {
      served.child.kill("SIGTERM");
      await served.exited;
    }
    const { code, stderr } = await runCli(["serve", SERVE_FIXTURE, "--port", "0", "--allow-host", "fakes:7353"]);
    expect(code).toBe(2);
    expect(stderr).toContain('allowed host "fakes:7353" is not a host name');
  });

  it("reads EVAL_SIMULATE_ALLOWED_HOSTS for the sidecar, the option winning", () => {
    expect(sidecarOptions({ EVAL_SIMULATE_ALLOWED_HOSTS: "fakes.internal,.svc.example" }).allowedHosts).toEqual(["fakes.internal,.svc.example"]);
    expect(sidecarOptions({ EVAL_SIMULATE_ALLOWED_HOSTS: "a.example" }, { allowedHosts: ["b.example"] }).allowedHosts).toEqual(["b.example"]);
  });
});

describe("a foreign Origin on every route of the port", () => {
  let services: Services;
  let api: Services;
  beforeAll(async () => {
    [services, api] = await Promise.all([
      serve(SERVE_FIXTURE, { adminToken: TOKEN, inspect: true, allowedOrigins: ["https://app.example.com"] }),
      serve(GITHUB),
    ]);
  });
  afterAll(() => Promise.all([services.close(), api.close()]));

  it("refuses it on the session, admin and inspector routes with 403 and a JSON body, the token notwithstanding", async () => {
    const origin = { origin: "https://evil.example" };
    const routes: Array<[string, string]> = [
      ["GET", "/sessions"],
      ["POST", "/sessions"],
      ["GET", "/notes/admin/state"],
      ["GET", "/notes/admin/calls"],
      ["GET", "/_inspect/worlds.json"],
      ["GET", "/health"],
    ];
    for (const [method, path] of routes) {
      const answer = await send(services.port, path, {
        method,
        headers: { ...origin, ...AUTH, "content-type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
      });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.json()).toMatchObject({
        error: "invalid_origin",
        message: expect.stringMatching(/^Invalid Origin: https:\/\/evil\.example is not allowed/),
      });
    }
    expect((await send(services.port, "/sessions", { headers: AUTH })).json()).toMatchObject({ sessions: [] });
  });

  it("keeps the MCP endpoint's JSON-RPC refusal", async () => {
    const answer = await send(services.port, "/notes/mcp", { method: "POST", headers: { ...MCP_HEADERS, origin: "http://evil.example" }, body: INITIALIZE });
    expect(answer.status).toBe(403);
    expect(answer.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: expect.stringMatching(/^Invalid Origin: http:\/\/evil\.example/) },
    });
  });

  it("serves requests without an Origin, loopback and allowed origins, and the port's own origin", async () => {
    const origins: Array<Record<string, string>> = [
      {},
      { origin: "http://localhost:5173" },
      { origin: "https://app.example.com" },
      { origin: `http://127.0.0.1:${services.port}` },
    ];
    for (const headers of origins) {
      expect((await send(services.port, "/sessions", { headers: { ...AUTH, ...headers } })).status, JSON.stringify(headers)).toBe(200);
    }
  });

  it("refuses a browser page of another site on an API fake, and serves server-side clients, which send no Origin", async () => {
    const foreign = await send(api.port, "/github/repos/octo/hello/issues/1", { headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(foreign.json()).toMatchObject({ error: "invalid_origin" });
    const byHost = await send(api.port, "/repos/octo/hello/issues/1", { headers: { host: "api.github.com", origin: "https://evil.example" } });
    expect(byHost.status).toBe(403);
    expect((await send(api.port, "/github/repos/octo/hello/issues/1")).status).toBe(200);
    expect((await send(api.port, "/repos/octo/hello/issues/1", { headers: { host: "api.github.com" } })).status).toBe(200);
  });
});

describe("the body of a POST to /sessions", () => {
  let services: Services;
  beforeAll(async () => {
    services = await serve(SERVE_FIXTURE);
  });
  afterAll(() => services.close());

  it("refuses a content type other than JSON with 415, creating nothing (what an HTML form or a simple fetch sends)", async () => {
    for (const type of ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp"]) {
      const answer = await send(services.port, "/sessions", { method: "POST", headers: { "content-type": type }, body: '{"id":"by-form"}' });
      expect(answer.status, type).toBe(415);
      expect(answer.headers["accept-post"]).toBe("application/json");
      expect(answer.json()).toMatchObject({ error: "unsupported_media_type" });
    }
    const untyped = await send(services.port, "/sessions", { method: "POST", body: '{"id":"untyped"}' });
    expect(untyped.status).toBe(415);
    expect((await send(services.port, "/sessions")).json()).toMatchObject({ sessions: [] });
  });

  it("takes JSON (with parameters, or a +json type), and an empty body with no type", async () => {
    expect(
      (await send(services.port, "/sessions", { method: "POST", headers: { "content-type": "application/json; charset=utf-8" }, body: '{"id":"typed"}' }))
        .status,
    ).toBe(201);
    expect(
      (await send(services.port, "/sessions", { method: "POST", headers: { "content-type": "application/merge-patch+json" }, body: '{"id":"plus"}' })).status,
    ).toBe(201);
    expect((await send(services.port, "/sessions", { method: "POST" })).status).toBe(201);
    expect((await send(services.port, "/sessions/typed/reset", { method: "POST" })).status).toBe(200);
    expect((await send(services.port, "/sessions/typed/fork", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" })).status).toBe(415);
  });
});
