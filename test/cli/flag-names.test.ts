import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ArgsDef, CommandDef } from "citty";
import { afterEach, describe, expect, it, vi } from "vitest";
import { evalSimulate } from "../../cli/eval-simulate.js";
import { takeRenamed } from "../../cli/flag-aliases.js";
import { FORMAT_WORDS } from "../../cli/formats.js";
import { capture } from "../../engine/author/capture/capture.js";
import { memoryCommand } from "../fidelity/memory-server.js";
import { ROOT } from "../support/examples.js";
import { runInProcess } from "../support/run-command.js";

const VALID = join(ROOT, "test/fixtures/valid/fakes.yaml");
const MEMORY = join(ROOT, "examples/memory");
const CALLS = join(MEMORY, "tests/replay-calls.yaml");

async function commands(): Promise<Record<string, CommandDef<ArgsDef> & { args: ArgsDef }>> {
  const subCommands = evalSimulate.subCommands as Record<string, () => Promise<CommandDef<ArgsDef> & { args: ArgsDef }>>;
  return Object.fromEntries(await Promise.all(Object.entries(subCommands).map(async ([name, load]) => [name, await load()] as const)));
}
const command = async (name: string) => (await commands())[name] as CommandDef<any>;

afterEach(() => {
  process.exitCode = undefined;
});

describe("one name per idea across the commands", () => {
  it("gives the manifest the same way to every command that reads one: a positional, or --manifest", async () => {
    const all = await commands();
    const reading = ["serve", "check", "validate", "types", "capture", "observe", "replay"];
    for (const name of reading) {
      expect(all[name].args.manifest, name).toMatchObject({ type: "string" });
      expect(
        Object.values(all[name].args).some((def) => def.type === "positional" && /\(or --manifest\b/.test(def.description ?? "")),
        name,
      ).toBe(true);
    }
    // Nothing else takes a flag that names a manifest another way.
    expect(
      Object.entries(all)
        .filter(([name, c]) => !reading.includes(name) && "manifest" in c.args)
        .map(([name]) => name),
    ).toEqual([]);
  });

  it("names the real MCP server --mcp or --mcp-url on every command, --against only as an old name", async () => {
    const all = await commands();
    expect(
      Object.entries(all)
        .filter(([, c]) => "mcp" in c.args)
        .map(([name]) => name)
        .sort(),
    ).toEqual(["capture", "init", "observe", "replay"]);
    for (const c of Object.values(all)) {
      for (const old of ["against", "against-url"])
        if (old in c.args) expect(c.args[old].description).toBe(`Deprecated: use --${old.replace("against", "mcp")}`);
    }
  });

  it("takes --format words from one list, text the default, described the same way everywhere", async () => {
    const formats = Object.entries(await commands()).filter(([, c]) => "format" in c.args);
    expect(formats.map(([name]) => name).sort()).toEqual(["check", "compare", "eval", "replay", "report", "select", "validate", "verify"]);
    for (const [name, c] of formats) {
      const format = c.args.format as { type: string; options: string[]; default: string; description: string };
      expect([format.type, format.default, format.options[0]], name).toEqual(["enum", "text", "text"]);
      expect(
        format.options.filter((word) => !(word in FORMAT_WORDS)),
        name,
      ).toEqual([]);
      expect(format.description, name).toMatch(/: text(, [a-z]+(?: \([^)]*\))?)* or [a-z]+(?: \([^)]*\))?$/);
    }
    // The same output, the same words: eval and report print one report, compare and select theirs.
    const options = (name: string) => (formats.find(([n]) => n === name)![1].args.format as { options: string[] }).options;
    expect(options("eval")).toEqual(options("report"));
    expect(options("select")).toEqual(options("compare"));
  });

  it("describes every old flag as deprecated, naming a flag the same command takes", async () => {
    for (const [name, c] of Object.entries(await commands())) {
      for (const [flag, def] of Object.entries(c.args)) {
        const to = /^Deprecated: use --([a-z-]+)$/.exec(def.description ?? "")?.[1];
        if (to !== undefined) expect(c.args[to], `${name} --${flag}`).toBeDefined();
      }
    }
  });
});

describe("the manifest as a positional or --manifest", () => {
  it("checks types the same either way, and refuses two different manifests (exit 2)", async () => {
    const types = await command("types");
    const out = join(mkdtempSync(join(tmpdir(), "flag-names-")), "fakes.d.ts");
    const positional = await runInProcess(types, [VALID, "--out", out, "--check"]);
    const flag = await runInProcess(types, ["--manifest", VALID, "--out", out, "--check"]);
    expect(positional.stdout).toMatch(/fakes\.d\.ts does not exist/);
    expect(flag).toEqual(positional);
    const both = await runInProcess(types, [VALID, "--manifest", join(ROOT, "examples/crm/fakes.yaml"), "--check"]);
    expect(both).toEqual({
      code: 2,
      stdout: "",
      stderr: `eval-simulate types: give the manifest once: ${VALID} or --manifest ${join(ROOT, "examples/crm/fakes.yaml")}\n`,
    });
  });

  it("takes the manifest after capture's id, as --manifest does", async () => {
    const dir = mkdtempSync(join(tmpdir(), "flag-names-capture-"));
    writeFileSync(join(dir, "fakes.yaml"), "version: 1\napis: {}\n");
    cpSync(join(ROOT, "examples/github/api/github/openapi.yaml"), join(dir, "github.yaml"));
    await capture({ manifest: join(dir, "fakes.yaml"), id: "github", spec: join(dir, "github.yaml"), operations: ["issues/get"] });
    const captureCommand = await command("capture");
    const positional = await runInProcess(captureCommand, ["github", join(dir, "fakes.yaml"), "--check"]);
    expect(positional).toMatchObject({ code: 0, stdout: expect.stringContaining("is what a fresh capture writes") });
    expect(await runInProcess(captureCommand, ["github", "--manifest", join(dir, "fakes.yaml"), "--check"])).toEqual(positional);
  });

  it("validates every file given either way", async () => {
    const validate = await command("validate");
    const { code, stdout } = await runInProcess(validate, [
      VALID,
      "--manifest",
      join(ROOT, "examples/crm/fakes.yaml"),
      `--manifest=${join(ROOT, "examples/mail/fakes.yaml")}`,
    ]);
    expect(code).toBe(0);
    expect(stdout.match(/✓/g)).toHaveLength(3);
  });

  it("serves --manifest as it serves the positional", async () => {
    const serve = await command("serve");
    const missing = await runInProcess(serve, ["--manifest", "/nonexistent/fakes.yaml"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("/nonexistent/fakes.yaml");
    expect((await runInProcess(serve, ["a.yaml", "--manifest", "b.yaml"])).stderr).toBe(
      "eval-simulate serve: give the manifest once: a.yaml or --manifest b.yaml\n",
    );
    expect((await runInProcess(serve, ["--manifest"])).stderr).toBe("eval-simulate serve: --manifest takes a file\n");
  });
});

describe("old names kept as deprecated aliases", () => {
  it("moves an old flag's value to its new name with one warning line, and refuses both names at once", () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const parsed: Record<string, unknown> = { against: "node server.js" };
      expect(takeRenamed("replay", parsed, { against: "mcp", "against-url": "mcp-url" })).toBe(true);
      expect(parsed.mcp).toBe("node server.js");
      expect(stderr.mock.calls.map(([line]) => line)).toEqual(["eval-simulate replay: --against is deprecated; use --mcp\n"]);
      stderr.mockClear();
      expect(takeRenamed("replay", { against: "a", mcp: "b" }, { against: "mcp" })).toBe(false);
      expect(stderr.mock.calls.map(([line]) => line)).toEqual(["eval-simulate replay: give --mcp only (--against is its old name)\n"]);
      expect(process.exitCode).toBe(2);
    } finally {
      stderr.mockRestore();
    }
  });

  it("replays --against as --mcp, saying once on stderr that --mcp replaces it", { timeout: 120_000 }, async () => {
    const replay = await command("replay");
    const current = await runInProcess(replay, [CALLS, join(MEMORY, "fakes.yaml"), "--mcp", memoryCommand()]);
    const old = await runInProcess(replay, [CALLS, join(MEMORY, "fakes.yaml"), "--against", memoryCommand()]);
    expect(current).toEqual({ code: 0, stdout: "✓ memory: 22 calls, every answer the same as the real server's\n", stderr: "" });
    expect(old).toEqual({ ...current, stderr: "eval-simulate replay: --against is deprecated; use --mcp\n" });
  });

  it("observes --against-url as --mcp-url, with the same warning", async () => {
    const observe = await command("observe");
    const old = await runInProcess(observe, [
      CALLS,
      "--id",
      "memory",
      "--manifest",
      join(MEMORY, "fakes.yaml"),
      "--against-url",
      "http://127.0.0.1:9/mcp",
      "--header",
      "no-colon",
    ]);
    // Only a URL takes headers: the refusal of this one shows the old flag's value reached --mcp-url.
    expect(old).toEqual({
      code: 2,
      stdout: "",
      stderr: 'eval-simulate observe: --against-url is deprecated; use --mcp-url\neval-simulate: a header is "Name: value", not "no-colon"\n',
    });
  });

  it("checks --recording as --record, with one warning line", async () => {
    const check = await command("check");
    const missing = await runInProcess(check, [VALID, "--recording", "no/such.jsonl"]);
    expect(missing).toEqual({
      code: 2,
      stdout: "",
      stderr: "eval-simulate check: --recording is deprecated; use --record\neval-simulate: --record: no file no/such.jsonl\n",
    });
  });
});

describe("what was dead is gone", () => {
  it("refuses verify --session as an unknown option (exit 2)", async () => {
    const verify = await command("verify");
    const evals = join(ROOT, "examples/crm/evals.yaml");
    expect(await runInProcess(verify, [evals, "--server", "http://127.0.0.1:9", "--session", "s1"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "eval-simulate: unknown option --session (see --help)\n",
    });
    expect(readFileSync(join(ROOT, "cli/verify.ts"), "utf8")).not.toMatch(/session/);
  });
});
