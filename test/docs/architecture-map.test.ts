import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/examples.js";

// ARCHITECTURE.md is the map of the layers dependency-cruiser enforces: one row per folder,
// under its layer, layers in the order the rules give them; the details live in each door.
const map = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
const rows = [...map.matchAll(/^\| (?:\*\*)?`([^`]+)`/gm)].map((m) => m[1]);
const config = createRequire(import.meta.url)(join(ROOT, ".dependency-cruiser.cjs")) as { forbidden: { name: string }[] };
const layers = config.forbidden.map((rule) => /^(\w+)-imports-downward-only$/.exec(rule.name)?.[1]).filter((name): name is string => name !== undefined);
const folders = readdirSync(join(ROOT, "engine"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== "entries")
  .flatMap((layer) =>
    readdirSync(join(ROOT, "engine", layer.name), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `engine/${layer.name}/${entry.name}/`),
  );

describe("ARCHITECTURE.md", () => {
  it("has a row for every layer, in the order dependency-cruiser's rules stack them", () => {
    expect(layers.length).toBeGreaterThan(3);
    const positions = layers.map((layer) => rows.indexOf(`engine/${layer}/`));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("has a row for every engine folder, under its own layer", () => {
    for (const folder of folders) {
      const layer = folder.split("/")[1];
      const at = rows.indexOf(folder);
      expect(at, `${folder} has no row`).toBeGreaterThan(rows.indexOf(`engine/${layer}/`));
      const next = layers[layers.indexOf(layer) + 1];
      if (next) expect(at, `${folder} sits below the engine/${next}/ row`).toBeLessThan(rows.indexOf(`engine/${next}/`));
    }
  });

  it("leaves no folder's door with the generic header: each says what its folder owns", () => {
    const generic = folders.filter((folder) => /^\/\*\* The door of /.test(readFileSync(join(ROOT, folder, "index.ts"), "utf8")));
    expect(generic).toEqual([]);
  });
});
