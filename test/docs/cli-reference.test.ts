import { readFileSync } from "node:fs";
import { defineCommand } from "citty";
import { describe, expect, it } from "vitest";
import { evalSimulate } from "../../cli/eval-simulate.js";
import { cellText, commandTree, renderCliReference } from "../../scripts/cli-reference.js";

const committed = readFileSync(new URL("../../docs/cli.md", import.meta.url), "utf8");

describe("docs/cli.md", () => {
  // Loading every command loads most of the engine: slow on a busy machine, never a timing assert.
  it("is what the citty definitions render (run `npm run docs:cli` when this fails)", async () => {
    expect(committed).toBe(await renderCliReference(evalSimulate));
  }, 180_000);
});

// A small tree with what the real CLI may grow: lazy and nested subcommands, aliases, a hidden one.
const tool = defineCommand({
  meta: { name: "tool", description: "A tool." },
  subCommands: {
    run: () =>
      Promise.resolve(
        defineCommand({
          meta: { name: "run", description: "Runs calls.", alias: ["go"] },
          args: {
            calls: { type: "positional", required: true, description: "The calls", valueHint: "calls.yaml" },
            against: { type: "string", alias: ["mcp", "a"], description: "The real server" },
            format: { type: "enum", options: ["text", "json"], default: "text", description: "How to print" },
            color: { type: "boolean", default: true, negativeDescription: "Print without colours" },
            id: { type: "string", required: true, description: "The fake's id" },
          },
        }),
      ),
    old: defineCommand({ meta: { name: "old", hidden: true, description: "A deprecated name" } }),
    group: () => defineCommand({ meta: { description: "A group" }, subCommands: { inner: defineCommand({ meta: { description: "The inner one" } }) } }),
  },
});

describe("the CLI reference renderer", () => {
  it("resolves lazy subcommands, nested ones included, and leaves hidden ones out as --help does", async () => {
    expect((await commandTree(tool)).map((entry) => entry.path.join(" "))).toEqual(["", "run", "group", "group inner"]);
  });

  it("renders each argument with its type, default, aliases and negation, and the command's aliases", async () => {
    const text = await renderCliReference(tool, "tool");
    expect(text).toContain("tool run <calls.yaml> --id <value> [options]");
    expect(text).toContain("Also run as `tool go`.");
    expect(text).toContain("| `<calls.yaml>` | positional | required | The calls |");
    expect(text).toContain("| `--against <value>`, `--mcp <value>`, `-a <value>` | string |  | The real server |");
    expect(text).toContain("| `--format <text\\|json>` | one of | `text` | How to print |");
    expect(text).toContain("| `--no-color` | boolean | | Print without colours |");
    expect(text).toContain("| `--id <value>` | string | required | The fake's id |");
    expect(text).toContain("## `group inner`");
    expect(text).toContain("| [`group inner`](#group-inner) | The inner one |");
    expect(text).not.toContain("deprecated name");
  });

  it("keeps code spans, sets variables and flags in code, and escapes what Markdown would read", () => {
    expect(cellText("Write <sid>.json (EVAL_SIMULATE_STATE_DIR; see --run-dir), a | b, or *")).toBe(
      "Write &lt;sid&gt;.json (`EVAL_SIMULATE_STATE_DIR`; see `--run-dir`), a \\| b, or \\*",
    );
    expect(cellText("the `a|b` form at /_inspect, snake_case kept")).toBe("the `a\\|b` form at /\\_inspect, snake_case kept");
  });
});
