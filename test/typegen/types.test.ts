import { execFile } from "node:child_process";
import { copyFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkManifest } from "../../engine/author/manifest/load-manifest.js";
import { typeName } from "../../engine/author/typegen/type-model.js";
import { runCli } from "../support/cli-process.js";
import { examples, ROOT } from "../support/examples.js";

const TSC = join(ROOT, "node_modules/.bin/tsc");

/** Type-checks one handler module against the crm example's generated types, as a Recipe's tsc would. */
async function typecheck(handlers: string): Promise<{ ok: boolean; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-types-"));
  copyFileSync(join(ROOT, "examples/crm/fakes.d.ts"), join(dir, "fakes.d.ts"));
  writeFileSync(join(dir, "handlers.ts"), handlers);
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
        paths: { "eval-simulate": [join(ROOT, "engine/author/handlers/typescript-handlers.ts")] },
      },
      files: ["handlers.ts"],
    }),
  );
  return new Promise((resolve) => {
    execFile(TSC, ["-p", dir], (error, stdout, stderr) => resolve({ ok: !error, output: `${stdout}${stderr}` }));
  });
}

const module = (body: string) => `import { defineHandlers } from "eval-simulate";
import type { CrmFake } from "./fakes.js";
export default defineHandlers<CrmFake>({
${body}
});
`;

describe("eval-simulate types", () => {
  it.each(examples())("keeps the %s example's generated types up to date (types --check)", async (_name, manifest) => {
    const { code, stdout, stderr } = await runCli(["types", manifest, "--check"]);
    expect(`${stdout}${stderr}`).toContain("is up to date");
    expect(code).toBe(0);
  });

  it("type-checks a handler that uses its arguments, state and answer as the manifest declares them", async () => {
    const { ok, output } = await typecheck(
      module(`  "get-record": (args, { state, fail }) => {
    const record = state.companies.find((c) => c.id === args.record_id) ?? fail("not found");
    return { object: args.object, record_id: record.id, web_url: "https://x", values: { ...record } };
  },`),
    );
    expect(output).toBe("");
    expect(ok).toBe(true);
  });

  it("makes a misspelled argument a tsc error", async () => {
    const { ok, output } = await typecheck(module(`  "get-record": (args) => ({ object: args.object, record_id: args.recordId, web_url: "", values: {} }),`));
    expect(ok).toBe(false);
    expect(output).toMatch(/Property 'recordId' does not exist/);
  });

  it("makes a misspelled tool name and a wrong answer shape tsc errors", async () => {
    const typo = await typecheck(module(`  "get-recrod": () => ({}),`));
    expect(typo.ok).toBe(false);
    expect(typo.output).toMatch(/get-recrod/);
    const shape = await typecheck(module(`  "get-record": (args) => ({ object: args.object, record_id: 7, web_url: "", values: {} }),`));
    expect(shape.ok).toBe(false);
    expect(shape.output).toMatch(/record_id/);
  });

  it("narrows after fail(): imported as a statement, and the context's as return fail() or ?? fail()", async () => {
    const narrowing = `import { defineHandlers, fail } from "eval-simulate";
import type { CrmFake } from "./fakes.js";
export default defineHandlers<CrmFake>({
  "get-record": (args, { state }) => {
    const record = state.companies.find((c) => c.id === args.record_id);
    if (!record) fail("not found");
    return { object: args.object, record_id: record.id, web_url: "https://x", values: { ...record } };
  },
  "complete-task": (args, { state, fail: refuse, text }) => {
    const first = state.tasks[0];
    if (!first) return refuse("empty");
    const { id } = state.tasks.find((t) => t.id === args.task_id) ?? refuse("gone");
    return text(id + first.id);
  },
});
`;
    const { ok, output } = await typecheck(narrowing);
    expect(output).not.toMatch(/possibly 'undefined'/);
    expect(ok, output).toBe(true);
  });

  it("names each tool's argument and answer types after the tool, also behind a named $ref", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-types-names-"));
    const named = (properties: Record<string, unknown>) => ({
      $ref: "#/definitions/parameters",
      definitions: { parameters: { type: "object", properties, additionalProperties: false } },
    });
    const tools = [
      { name: "list_tasks", inputSchema: named({ status: { type: "string" } }) },
      { name: "request_planning", inputSchema: named({ tasks: { type: "array", items: { type: "string" } } }) },
      { name: "get-note", inputSchema: { type: "object", title: "parameters", properties: { id: { type: "string" } } } },
    ];
    writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools }));
    writeFileSync(
      join(dir, "fakes.yaml"),
      [
        "version: 1",
        "servers:",
        "  tasks:",
        "    captured: tools.json",
        "    entities: { tasks: { schema: { type: array }, default: [] } }",
        "    tools:",
        "      list_tasks: { reads: [tasks], answer: { format: json, schema: { type: object, properties: { count: { type: integer } } } }, jsonata: '{ \"count\": 0 }' }",
        "      request_planning: { writes: [tasks], answer: { format: text }, jsonata: '\"ok\"' }",
        "      get-note: { reads: [tasks], answer: { format: text }, jsonata: '\"ok\"' }",
        "",
      ].join("\n"),
    );
    const run = await runCli(["types", join(dir, "fakes.yaml")]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const types = readFileSync(join(dir, "fakes.d.ts"), "utf8");
    for (const name of ["ListTasksArgs", "RequestPlanningArgs", "GetNoteArgs"]) expect(types).toMatch(new RegExp(`^export interface ${name} \\{`, "m"));
    expect(types).toMatch(/^export interface ListTasksResult \{/m);
    expect(types).toMatch(/^export type RequestPlanningResult = string;/m);
    expect(types).toMatch(/^ {2}list_tasks: ListTasksArgs;$/m);
    expect(types).not.toMatch(/Parameters/);
  });

  it("warns from validate when the generated file was made from an earlier manifest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-types-"));
    cpSync(join(ROOT, "examples/weather"), dir, { recursive: true });
    const fresh = await checkManifest(join(dir, "fakes.yaml"), { clock: "2026-10-01T09:00:00Z" });
    expect(fresh.diagnostics.filter((d) => d.code === "W_TYPES_STALE")).toEqual([]);
    const manifest = readFileSync(join(dir, "fakes.yaml"), "utf8");
    // An entity's schema changes: the State type the handlers were checked against is no longer it.
    const changed = manifest.replace(
      'schema: { type: array, items: { $ref: "#/schemas/Station" } }',
      'schema: { type: array, items: { anyOf: [{ $ref: "#/schemas/Station" }, { type: string }] } }',
    );
    expect(changed).not.toBe(manifest);
    writeFileSync(join(dir, "fakes.yaml"), changed);
    const stale = await checkManifest(join(dir, "fakes.yaml"), { clock: "2026-10-01T09:00:00Z" });
    expect(stale.manifest).toBeDefined();
    expect(stale.diagnostics.map((d) => d.code)).toContain("W_TYPES_STALE");
  });

  it("names each fake's types after its id", () => {
    expect(typeName("crm")).toBe("Crm");
    expect(typeName("my-api_v2")).toBe("MyApiV2");
    expect(typeName("3d")).toBe("Fake3d");
  });
});
