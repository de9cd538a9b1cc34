import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TOOLS } from "./fifty-tools.js";

/** Writes a manifest of `servers` servers × 50 tools and `scenarios` scenarios; returns its path. */
export function writeBigManifest(dir: string, servers = 20, scenarios = 5): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools: TOOLS }));
  let yaml = "version: 1\nservers:\n";
  for (let s = 1; s <= servers; s++) {
    yaml += `  server-${s}:\n    captured: tools.json\n    entities:\n      items: { schema: { type: array, items: { type: object, required: [id] } }, default: [] }\n      counter: { schema: { type: integer }, default: 0 }\n    tools:\n`;
    for (const tool of TOOLS) {
      yaml += `      ${tool.name}:\n        reads: [items]\n        answer: { format: json, schema: { type: object } }\n        jsonata: '{ "id": $args.id, "items": $count($state.items) }'\n`;
    }
  }
  yaml += "scenarios:\n";
  for (let c = 1; c <= scenarios; c++) {
    yaml += `  scenario-${c}:\n${c === 1 ? "    default: true\n" : "    extends: scenario-1\n"}    state:\n`;
    for (let s = 1; s <= servers; s++) yaml += `      server-${s}:\n        items: [{ id: item-${c}-${s}, at: { $date: "-${c}d" } }]\n`;
  }
  const file = join(dir, "fakes.yaml");
  writeFileSync(file, yaml);
  return file;
}
