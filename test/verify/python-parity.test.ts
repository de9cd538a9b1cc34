import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeToon, encodeToon } from "../../engine/author/contract/index.js";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { canonicalJson } from "../../engine/core/record/changed-entities.js";
import { worldHash } from "../../engine/entries/verify.js";
import { examples } from "../support/examples.js";
import { pythonJson } from "../support/python.js";

const CLOCK = "2026-10-01T09:00:00.000Z";

/** Every scenario's world of every example, as the fakes start in it (plain JSON). */
async function exampleWorlds(): Promise<Array<{ name: string; states: Record<string, Record<string, unknown>> }>> {
  const worlds = [];
  for (const [example, manifest] of examples()) {
    const { world, scenarios } = await loadFakes(manifest, { clock: CLOCK });
    for (const scenario of scenarios) {
      const states = JSON.parse(JSON.stringify(await world.build(scenario, new Date(CLOCK))));
      worlds.push({ name: `${example}/${scenario}`, states });
    }
  }
  return worlds;
}

describe("the Python verify against the engine, on every example's scenarios", { timeout: 60_000 }, () => {
  it("hashes every world as worldHash does, and decodes every entity as @toon-format/toon writes it", async () => {
    const worlds = await exampleWorlds();
    expect(worlds.length).toBeGreaterThanOrEqual(12);
    // Each entity alone, each fake's whole state, and each world: the shapes a toon answer takes.
    const values = worlds.flatMap(({ states }) => [states, ...Object.values(states).flatMap((state) => [state, ...Object.values(state)])]);
    const texts = values.map((value) => encodeToon(value));
    const file = join(mkdtempSync(join(tmpdir(), "python-parity-")), "worlds.json");
    writeFileSync(file, JSON.stringify({ worlds: worlds.map((w) => w.states), toon: texts }));
    const python = await pythonJson(["tests/ts_parity.py", "worlds", file]);
    expect(python.hashes).toHaveLength(worlds.length);
    worlds.forEach(({ name, states }, i) => expect(python.hashes[i], name).toEqual(worldHash(states)));
    const disagreeing = texts.filter((text, i) => {
      const ts = decodeToon(text);
      const py = python.toon[i];
      return !ts.ok || !py.ok || canonicalJson(py.value) !== canonicalJson(ts.value);
    });
    expect(disagreeing.slice(0, 3)).toEqual([]);
    expect(texts.length).toBeGreaterThan(50);
  });
});
