import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The 50 captured tools every MCP subject serves: the same schemas, the same answers. */
export const TOOLS = Array.from({ length: 50 }, (_, i) => ({
  name: `tool-${String(i + 1).padStart(2, "0")}`,
  title: `Tool ${i + 1}`,
  description: `Reads the counter and echoes the id (tool ${i + 1} of 50).`,
  inputSchema: {
    type: "object",
    properties: { id: { type: "string", minLength: 1 }, limit: { type: "integer", minimum: 1, maximum: 100, default: 10 } },
    required: ["id"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
}));

/** The tool every subject is called with. */
export const CALLED = "tool-25";

/** A write beside the 50 reads: adds one to the counter (the engine's fakes only). */
export const BUMP = {
  name: "bump",
  description: "Adds one to the counter.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
};

const TS_HANDLERS = `import { defineHandlers } from "eval-simulate";

const handler = (args: { id: string; limit: number }, { state }: { state: { counter: number } }) => ({ id: args.id, limit: args.limit, counter: state.counter });
export default defineHandlers(Object.fromEntries(${JSON.stringify(TOOLS.map((t) => t.name))}.map((name) => [name, handler])));
`;

const WORLD_MODULE = `import { readFileSync } from "node:fs";

export const SCENARIOS = ["bench"];
const items = JSON.parse(readFileSync(new URL("./world.json", import.meta.url), "utf8"));
export function world() {
  return { bench: { counter: 7, items } };
}
`;

/**
 * Writes a 50-tool fake to `dir` with every tool handled in JSONata (`jsonata/fakes.yaml`) or
 * in TypeScript (`typescript/fakes.yaml`), and a world whose `items` entity holds `items`
 * records the calls never touch.
 */
export function writeFiftyToolFakes(dir: string, items = 10): { jsonata: string; typescript: string } {
  const files = { jsonata: join(dir, "jsonata", "fakes.yaml"), typescript: join(dir, "typescript", "fakes.yaml") };
  for (const kind of ["jsonata", "typescript"] as const) {
    const folder = join(dir, kind);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "tools.json"), JSON.stringify({ tools: [...TOOLS, BUMP] }));
    const tools =
      TOOLS.map((t) =>
        kind === "jsonata"
          ? `      ${t.name}:\n        reads: [counter]\n        answer: { format: json }\n        jsonata: '{ "id": $args.id, "limit": $args.limit, "counter": $state.counter }'`
          : `      ${t.name}:\n        reads: [counter]\n        answer: { format: json }`,
      ).join("\n") +
      `\n      bump:\n        writes: [counter]\n        answer: { format: json }\n        jsonata:\n          set: { counter: '$state.counter + 1' }\n          return: '{ "counter": $next.counter }'`;
    const records = Array.from({ length: items }, (_, i) => ({ id: `item-${i}`, title: `Item ${i}`, tags: ["a", "b"], score: i }));
    writeFileSync(join(folder, "world.json"), JSON.stringify(records));
    // The records come from a world module: a YAML scenario of 100,000 records would measure the
    // YAML parser, not the fake.
    writeFileSync(join(folder, "world.ts"), WORLD_MODULE);
    writeFileSync(
      files[kind],
      `version: 1\nservers:\n  bench:\n    captured: tools.json\n${kind === "typescript" ? "    handlers: handlers.ts\n" : ""}    entities:\n      counter: { schema: { type: integer }, default: 7 }\n      items: { schema: { type: array }, default: [] }\n    tools:\n${tools}\nworld: world.ts\n`,
    );
    if (kind === "typescript") writeFileSync(join(folder, "handlers.ts"), TS_HANDLERS);
  }
  return files;
}
