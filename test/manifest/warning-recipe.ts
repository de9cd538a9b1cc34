import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const FIXTURE = new URL("../fixtures/warn-unknown-argument/", import.meta.url).pathname;

/**
 * A Recipe whose check warns three ways a cache could lose: a pattern RE2 cannot run (found by
 * compiling a captured schema), a $state read its tool does not declare (placed inside a JSONata
 * string) and an argument its schema does not declare. Written to `dir`; answers its fakes.yaml.
 */
export function writeWarningRecipe(dir: string): string {
  cpSync(FIXTURE, dir, { recursive: true });
  const tools = JSON.parse(readFileSync(join(dir, "tools.json"), "utf8")) as {
    tools: Array<{ name: string; inputSchema: { properties: Record<string, Record<string, unknown>> } }>;
  };
  const create = tools.tools.find((tool) => tool.name === "create-note")!;
  create.inputSchema.properties.title.pattern = "^(?!draft).*$";
  writeFileSync(join(dir, "tools.json"), JSON.stringify(tools));
  // No handlers module: a copy outside the package could not import eval-simulate.
  rmSync(join(dir, "handlers.ts"));
  const yaml = readFileSync(join(dir, "fakes.yaml"), "utf8")
    .replace("    handlers: handlers.ts\n", "")
    .replace("        answer: { format: text }\n", "        answer: { format: text }\n        jsonata: '$join($state.notes.title, \"\\n\")'\n")
    .replace("      get-note:\n        reads: [notes]\n", "      get-note:\n");
  writeFileSync(join(dir, "fakes.yaml"), yaml);
  return join(dir, "fakes.yaml");
}
