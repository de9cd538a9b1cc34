/**
 * `verify --server` (fetchRun) reads a live server's admin answers under a time limit and a size
 * cap: a server that never answers, stops half-way or answers without end is an error naming the
 * address, never a verify that hangs or fills its memory.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fetchRun } from "../../engine/judge/evals/index.js";

let server: Server | undefined;
const open: ServerResponse[] = [];
afterEach(async () => {
  for (const response of open.splice(0)) response.destroy();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

async function serving(handle: (response: ServerResponse) => void): Promise<string> {
  server = createServer((_request, response) => {
    open.push(response);
    handle(response);
  });
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("fetching a run from a live server", () => {
  it("gives up on a server that never answers, naming the address and the limit", async () => {
    const base = await serving(() => undefined);
    await expect(fetchRun(base, ["crm"], { timeoutMs: 500 })).rejects.toThrow(`GET ${base}/crm/admin/initial-state did not answer within 0.5 s`);
  });

  it("gives up on an answer whose body stops half-way", async () => {
    const base = await serving((response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"tasks": [');
    });
    await expect(fetchRun(base, ["crm"], { timeoutMs: 500 })).rejects.toThrow(/did not answer within 0\.5 s/);
  });

  it("stops reading an answer past its size cap", async () => {
    const base = await serving((response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const chunk = `"${"x".repeat(4096)}",`;
      const more = () => {
        while (response.write(chunk));
        response.once("drain", more);
      };
      response.write("[");
      more();
    });
    await expect(fetchRun(base, ["crm"], { maxBytes: 64 * 1024 })).rejects.toThrow(`GET ${base}/crm/admin/initial-state answered more than 65536 bytes`);
  });

  it("says so when an answer is not JSON", async () => {
    const base = await serving((response) => response.end("<html>a proxy's page</html>"));
    await expect(fetchRun(base, ["crm"])).rejects.toThrow(/answered no JSON: "<html>a proxy's page<\/html>"/);
  });
});
