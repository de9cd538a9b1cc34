import { describe, expect, it } from "vitest";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { startServices } from "../../engine/serve/host/start-services.js";
import { contractOf, toolsOf } from "../../engine/author/fakes/index.js";
import * as mail from "../fixtures/typescript-fake/index.js";
import { CLOCK, connect, SERVE_FIXTURE, textOf } from "../support/services.js";

describe("fakes declared in TypeScript", () => {
  it("serve beside YAML fakes on one port and one runtime", async () => {
    const { fakes, world } = await loadFakes(SERVE_FIXTURE, { clock: CLOCK });
    const both = async (scenario: string, clock: Date) => ({ ...(await world.build(undefined, clock)), ...mail.world(scenario) });
    const services = await startServices({ ...fakes, mail }, { world: both, scenario: "busy", clock: CLOCK });
    const client = await connect(services.url("mail"));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["send-email", "list-emails", "get-email"]);
    const sent = await client.callTool({ name: "send-email", arguments: { to: "b@example.com", subject: "Plan" } });
    expect(textOf(sent)).toBe('Email sent successfully! {"id":"email-2"}');
    expect(services.states.mail.emails).toEqual([
      { id: "email-0", to: "a@example.com", subject: "Hi", priority: "normal" },
      { id: "email-2", to: "b@example.com", subject: "Plan", priority: "normal" },
    ]);
    const got = await client.callTool({ name: "get-email", arguments: { id: "email-2" } });
    expect(got.structuredContent).toEqual({ id: "email-2", to: "b@example.com" });
    const bad = await client.callTool({ name: "send-email", arguments: { to: "nobody", subject: "x" } });
    expect(textOf(bad)).toBe('Input validation error: Invalid arguments for tool send-email: data/to must match format "email"');
    const notes = await connect(services.url("notes"));
    expect((await notes.listTools()).tools[0].name).toBe("list-notes");
    await Promise.all([client.close(), notes.close()]);
    await services.close();
  });

  it("refuses to start when the handlers register other tools than the manifest allows", async () => {
    const reordered = {
      ...mail,
      register: (server: Parameters<typeof mail.register>[0], state: Parameters<typeof mail.register>[1]) => {
        const { config } = toolsOf(mail.contract);
        server.registerTool("list-emails", config("list-emails"), async () => state);
        server.registerTool("send-email", config("send-email"), async () => state);
      },
    };
    await expect(startServices({ mail: reordered }, { world: mail.world })).rejects.toThrow(
      /fake "mail" cannot start: its handlers register \[list-emails, send-email\] but its manifest allows \[send-email, list-emails, get-email\]/,
    );
  });

  it("refuses a tool registered with another tool's config", async () => {
    const mixed = {
      ...mail,
      manifest: { ...mail.manifest, tools: { "send-email": {} } },
      register: (server: Parameters<typeof mail.register>[0]) => {
        server.registerTool("send-email", toolsOf(mail.contract).config("list-emails"), async () => ({ content: [] }));
      },
    };
    await expect(startServices({ mail: mixed }, { world: mail.world })).rejects.toThrow(/"send-email" is not registered with config\("send-email"\)/);
  });

  it("refuses to start when the world holds no state for a fake", async () => {
    await expect(startServices({ mail }, { world: () => ({}) })).rejects.toThrow(/holds no state for "mail"/);
  });

  it("refuses an unknown scenario, naming the known ones", async () => {
    const { fakes, world } = await loadFakes(SERVE_FIXTURE, { clock: CLOCK });
    await expect(startServices(fakes, { world, scenario: "stormy" })).rejects.toThrow(/unknown scenario "stormy".*quiet, empty/);
  });

  it("checks a contract as it is made", () => {
    expect(() => contractOf(mail.tools, { nope: { format: "json" } })).toThrow(/"nope", which is not a captured tool/);
    expect(() => contractOf(mail.tools, { "get-email": { format: "json" } })).toThrow(/outputSchema/);
    expect(() => toolsOf(mail.contract).config("purge-all")).toThrow(/not a tool of this contract/);
  });
});
