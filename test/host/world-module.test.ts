import { describe, expect, it } from "vitest";
import { checkManifest } from "../../engine/author/manifest/load-manifest.js";
import { CLOCK, connect, serve, textOf } from "../support/services.js";

const MANIFEST = new URL("../fixtures/world-module/fakes.yaml", import.meta.url).pathname;

describe("a world from a TypeScript module", () => {
  it("validates each of its scenarios against the entity schemas and invariants", async () => {
    const { manifest, diagnostics } = await checkManifest(MANIFEST, { clock: CLOCK });
    expect(diagnostics).toEqual([]);
    expect(manifest?.world.scenarios).toEqual(["quiet", "busy"]);
    expect(manifest?.defaultScenario).toBe("quiet");
  });

  it("serves the scenario asked for, computed from the clock", async () => {
    const services = await serve(MANIFEST, { scenario: "busy" });
    const client = await connect(services.url("notes"));
    const listed = JSON.parse(textOf(await client.callTool({ name: "list-notes", arguments: {} })));
    expect(listed.notes).toEqual([
      { id: "note-1", title: "Kickoff", createdAt: "2026-09-28T09:00:00.000Z" },
      { id: "note-2", title: "Review", createdAt: "2026-09-30T09:00:00.000Z" },
    ]);
    await client.close();
    await services.close();
  });

  it("builds equal worlds that share no object for the same scenario and clock", async () => {
    const { manifest } = await checkManifest(MANIFEST, { clock: CLOCK });
    const [a, b] = await Promise.all([manifest!.world.build("busy", new Date(CLOCK)), manifest!.world.build("busy", new Date(CLOCK))]);
    expect(a).toEqual(b);
    expect(a.notes.notes).not.toBe(b.notes.notes);
  });
});
