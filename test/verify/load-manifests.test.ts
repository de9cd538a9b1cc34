import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadManifests, readRecord } from "../../engine/entries/verify.js";
import { examples } from "../support/examples.js";
import { serve } from "../support/services.js";

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "eval-simulate-manifests-"));
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

describe("loadManifests", () => {
  it.each(examples())("derives from the %s example's fakes.yaml the manifests serve writes for it", async (_name, manifest) => {
    const fromYaml = loadManifests(manifest);
    const dir = tempDir();
    const services = await serve(manifest, { manifestDir: dir });
    await services.close();
    const written = existsSync(join(dir, "mcp")) || existsSync(join(dir, "api")) ? loadManifests(dir) : {};
    // API fakes are compared once the host writes their api/<id>/manifest.json.
    const apisWritten = existsSync(join(dir, "api"));
    expect(Object.fromEntries(Object.entries(fromYaml).filter(([, m]) => m.kind === "mcp" || apisWritten))).toEqual(written);
  });

  it("reads the entity map of every fake, MCP and API, from a manifest dir", () => {
    const dir = tempDir();
    writeJson(join(dir, "mcp/crm/manifest.json"), {
      id: "crm",
      kind: "mcp",
      entities: ["notes"],
      tools: { "create-note": { kind: "stateful", reads: [], writes: ["notes"] } },
    });
    writeJson(join(dir, "api/graph/manifest.json"), {
      id: "graph",
      kind: "api",
      entities: ["messages"],
      operations: { "POST /me/sendMail": { reads: [], writes: ["messages"] } },
    });
    expect(loadManifests(dir)).toEqual({
      crm: { id: "crm", kind: "mcp", entities: ["notes"], tools: { "create-note": { kind: "stateful", reads: [], writes: ["notes"] } } },
      graph: {
        id: "graph",
        kind: "api",
        entities: ["messages"],
        operations: { "POST /me/sendMail": { reads: [], writes: ["messages"], method: "POST", path: "/me/sendMail" } },
      },
    });
  });

  it("reads a folder of fake folders, as a Recipe keeps them under fakes/mcp", () => {
    const dir = tempDir();
    writeJson(join(dir, "attio/manifest.json"), { entities: ["deals"], tools: { "update-deal": { reads: ["deals"], writes: ["deals"] } } });
    expect(loadManifests(dir).attio).toEqual({
      id: "attio",
      kind: "mcp",
      entities: ["deals"],
      tools: { "update-deal": { kind: "stateful", reads: ["deals"], writes: ["deals"] } },
    });
  });

  it("throws when the directory is missing", () => {
    expect(() => loadManifests(join(tempDir(), "nope"))).toThrow(/\[eval-simulate\] cannot load manifests: .*nope does not exist/);
  });

  it("throws when the directory holds no manifest", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "mcp"));
    expect(() => loadManifests(dir)).toThrow(/holds no manifest/);
  });

  it("refuses a manifest filed under another fake's id, or writing an entity it does not declare", () => {
    const dir = tempDir();
    writeJson(join(dir, "mcp/crm/manifest.json"), { id: "mail", kind: "mcp", entities: [], tools: {} });
    expect(() => loadManifests(dir)).toThrow(/says id "mail", but it is the manifest of "crm"/);
    writeJson(join(dir, "mcp/crm/manifest.json"), { id: "crm", kind: "mcp", entities: [], tools: { x: { reads: [], writes: ["notes"] } } });
    expect(() => loadManifests(dir)).toThrow(/"x" writes notes, which "crm" does not declare/);
  });

  it("keys an API operation from fakes.yaml by its operationId, with its route, as the host names it", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "openapi.yaml"),
      "openapi: 3.0.3\ninfo: { title: Mail, version: '1' }\npaths:\n  /emails:\n    post: { operationId: sendEmail, responses: { '200': { description: ok } } }\n    get: { responses: { '200': { description: ok } } }\n",
    );
    writeFileSync(
      join(dir, "fakes.yaml"),
      "version: 1\napis:\n  mailer:\n    openapi: openapi.yaml\n    entities: { emails: { schema: { type: array } } }\n    operations:\n      POST /emails: { writes: [emails] }\n      GET /emails: { reads: [emails] }\n",
    );
    expect(loadManifests(join(dir, "fakes.yaml")).mailer).toEqual({
      id: "mailer",
      kind: "api",
      entities: ["emails"],
      operations: {
        sendEmail: { reads: [], writes: ["emails"], method: "POST", path: "/emails" },
        "GET /emails": { reads: ["emails"], writes: [], method: "GET", path: "/emails" },
      },
    });
  });
});

describe("readRecord", () => {
  it("reads one call per line, skipping blank lines", () => {
    const file = join(tempDir(), "calls.jsonl");
    writeFileSync(
      file,
      '{"server":"crm","tool":"list-notes","args":{},"result":{"content":[]}}\n\n{"api":"graph","operation":"GET /me","request":{},"response":{}}\n',
    );
    expect(readRecord(file)).toEqual([
      { server: "crm", tool: "list-notes", args: {}, result: { content: [] } },
      { api: "graph", operation: "GET /me", request: {}, response: {} },
    ]);
  });

  it("throws naming the line that is not JSON, or not a call", () => {
    const file = join(tempDir(), "calls.jsonl");
    writeFileSync(file, '{"server":"crm","tool":"a","args":{},"result":{}}\n{"server":\n');
    expect(() => readRecord(file)).toThrow(/calls\.jsonl:2: not a JSON line/);
    writeFileSync(file, '\n{"hello":"world"}\n');
    expect(() => readRecord(file)).toThrow(/calls\.jsonl:2: not a recorded call/);
  });
});
