import { afterEach, beforeEach, describe, expect, it } from "vitest";
import validate from "../../cli/validate.js";
import schema from "../../cli/schema.js";
import { runCli } from "../support/cli-process.js";
import { examples } from "../support/examples.js";
import { runInProcess } from "../support/run-command.js";

const fixture = (name: string) => new URL(`../fixtures/${name}/fakes.yaml`, import.meta.url).pathname;

const run = runInProcess;

describe("eval-simulate validate", () => {
  beforeEach(() => {
    process.exitCode = undefined;
  });
  afterEach(() => {
    process.exitCode = undefined;
  });

  it("exits 0 and says what a valid manifest declares", async () => {
    const { stdout, code } = await run(validate, [fixture("valid")]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/✓ .*valid: 1 server \(4 tools\), 0 apis, 2 scenarios/);
  });

  it("exits 1 and prints each problem with its place, a code frame and a hint", async () => {
    const { stdout, code } = await run(validate, [fixture("error-unknown-key")]);
    expect(code).toBe(1);
    expect(stdout).toContain('fakes.yaml:16:9 error E_UNKNOWN_KEY unknown key "write" in servers.notes.tools.create-note. Did you mean "writes"?');
    expect(stdout).toContain("  16 |         write: [notes]\n     |         ^");
    expect(stdout).toContain("hint: Keys allowed here:");
  });

  it("prints JSON with every diagnostic for machines", async () => {
    const { stdout, code } = await run(validate, ["--format", "json", fixture("error-many"), fixture("valid")]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.valid).toBe(false);
    expect(report.files.map((f: { valid: boolean }) => f.valid)).toEqual([false, true]);
    expect(report.files[0].diagnostics.find((d: { severity: string }) => d.severity === "error")).toMatchObject({
      code: "E_UNKNOWN_ENTITY",
      severity: "error",
      line: 12,
      column: 17,
    });
  });

  it("prints GitHub workflow annotations", async () => {
    const { stdout } = await run(validate, ["--format", "github", fixture("error-jsonata-syntax")]);
    expect(stdout).toMatch(/^::error file=test\/fixtures\/error-jsonata-syntax\/fakes\.yaml,line=24,col=66,title=E_JSONATA_SYNTAX::Expected "}", got "]"/m);
  });

  it("exits 2 for a manifest it cannot read and for an unknown option", async () => {
    expect((await run(validate, ["/nonexistent/fakes.yaml"])).code).toBe(2);
    const unknown = await run(validate, ["--formt", "json", fixture("valid")]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option --formt");
  });

  it("prints the manifest's JSON Schema", async () => {
    const { stdout } = await run(schema, []);
    expect(JSON.parse(stdout).$schema).toBe("http://json-schema.org/draft-07/schema#");
  });

  it("validates every example as a real process, exit 0", async () => {
    const { code, stdout, stderr } = await runCli(["validate", ...examples().map(([, file]) => file)]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout.match(/✓/g)).toHaveLength(examples().length);
  });

  it("answers --help with the command's usage", async () => {
    const { code, stdout } = await runCli(["validate", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("--format");
  });
});
