import { execFile, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import config from "../../vitest.config.js";

const project = (name: string) => {
  const found = config.test?.projects?.find((p) => typeof p === "object" && "test" in p && p.test?.name === name);
  if (!found || typeof found !== "object" || !("test" in found)) throw new Error(`no project ${name}`);
  return found.test ?? {};
};

// This file is a unit test: what it checks is the unit project's own guard.
describe("the unit project", () => {
  it("fails a test that starts a process, saying where it belongs", () => {
    expect(() => spawnSync(process.execPath, ["--version"])).toThrow(
      "[test] a unit test started a process (child_process.spawnSync): move it to the process project (PROCESS in vitest.config.ts, see test/README.md)",
    );
    expect(() => spawn(process.execPath, ["--version"])).toThrow(/started a process \(child_process\.spawn\)/);
    expect(() => execFile(process.execPath, ["--version"])).toThrow(/started a process \(child_process\.execFile\)/);
  });

  it("fails a test that listens on a port", () => {
    const server = createServer();
    expect(() => server.listen(0, "127.0.0.1")).toThrow(
      "[test] a unit test listened on a port (net.Server.listen): move it to the process project (PROCESS in vitest.config.ts, see test/README.md)",
    );
  });
});

describe("the projects' set-up", () => {
  it("builds dist/ before the process and browser tests when a source is newer, and guards the unit tests", () => {
    expect(project("process").globalSetup).toEqual(["test/support/fresh-dist.ts"]);
    expect(project("browser").globalSetup).toEqual(["test/support/fresh-dist.ts"]);
    expect(project("unit").setupFiles).toEqual(["test/support/unit-guard.ts"]);
    expect(project("unit").globalSetup).toBeUndefined();
  });
});
