import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { checkManifest } from "../../engine/author/manifest/load-manifest.js";
import { matchTemplate } from "../../engine/serve/runtime/read-resource.js";
import { connect, serve } from "../support/services.js";

const MANIFEST = new URL("../fixtures/fidelity/fakes.yaml", import.meta.url).pathname;
const MEMORY = new URL("../../examples/memory/fakes.yaml", import.meta.url).pathname;

let services: Services | undefined;
afterEach(async () => {
  await services?.close();
  services = undefined;
});

describe("resources", () => {
  it("lists the captured resources and templates a fake serves, and declares the capability", async () => {
    services = await serve(MANIFEST);
    const client = await connect(services.url("profiles"));
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    expect((await client.listResources()).resources).toEqual([{ uri: "profiles://all", name: "all-profiles", mimeType: "application/json" }]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: "profiles://{id}/card", name: "profile-card", mimeType: "text/plain" },
    ]);
    await client.close();
  });

  it("reads a resource from the fake's state with JSONata, and a template's variables with TypeScript", async () => {
    services = await serve(MANIFEST);
    const client = await connect(services.url("profiles"));
    expect(await client.readResource({ uri: "profiles://all" })).toEqual({
      contents: [
        { uri: "profiles://all", mimeType: "application/json", text: '{\n  "profiles": [\n    {\n      "id": "p1",\n      "name": "Ada"\n    }\n  ]\n}' },
      ],
    });
    expect((await client.readResource({ uri: "profiles://p1/card" })).contents).toEqual([
      { uri: "profiles://p1/card", mimeType: "text/plain", text: "Ada (p1)" },
    ]);
    await expect(client.readResource({ uri: "profiles://nobody" })).rejects.toThrow(/Resource profiles:\/\/nobody not found/);
    await client.close();
  });

  it("follows the state as calls change it, so a resource_link in an answer leads to what the tools wrote", async () => {
    services = await serve(MEMORY);
    const client = await connect(services.url("memory"));
    await client.callTool({ name: "create_entities", arguments: { entities: [{ name: "Ada", entityType: "person", observations: [] }] } });
    const read = await client.readResource({ uri: "memory://knowledge-graph" });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({
      entities: [{ name: "Ada", entityType: "person", observations: [] }],
      relations: [],
    });
    await client.close();
  });

  it("refuses a resource the capture does not list, with the nearest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-resources-"));
    const source = new URL("../fixtures/fidelity/", import.meta.url).pathname;
    for (const file of ["tools.json", "handlers.ts"]) writeFileSync(join(dir, file), readFileSync(join(source, file)));
    writeFileSync(join(dir, "fakes.yaml"), readFileSync(join(source, "fakes.yaml"), "utf8").replace("profiles://all:", "profiles://al:"));
    const { diagnostics } = await checkManifest(join(dir, "fakes.yaml"));
    expect(diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      ["E_UNKNOWN_RESOURCE", 12, '"profiles://al" is not a captured resource or resource template. Did you mean "profiles://all"?'],
    ]);
  });

  it("matches a template's {variables}, each one path segment", () => {
    expect(matchTemplate("profiles://{id}/card", "profiles://p%201/card")).toEqual({ id: "p 1" });
    expect(matchTemplate("profiles://{id}/card", "profiles://a/b/card")).toBeUndefined();
    expect(matchTemplate("files://{+path}", "files://a/b.txt")).toEqual({ path: "a/b.txt" });
  });
});
