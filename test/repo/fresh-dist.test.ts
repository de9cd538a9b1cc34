import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { type BuildResult, ensureFreshDist, staleDist } from "../support/fresh-dist.js";

// All in the past, so a build's outputs (written now) are newer than any of them.
const EARLIER = new Date("2020-01-01T00:00:00Z");
const LATER = new Date("2020-01-02T00:00:00Z");
const EDITED = new Date("2020-01-03T00:00:00Z");

/** A tree like the project's: sources under engine/, cli/, schema/ and their outputs in dist/, each written at a time. */
function tree(files: Record<string, Date>): string {
  const root = mkdtempSync(join(tmpdir(), "eval-simulate-fresh-dist-"));
  for (const [file, time] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), "");
    utimesSync(join(root, file), time, time);
  }
  return root;
}

/** A current tree: every output written after its source. */
const current = () =>
  tree({
    "tsconfig.json": EARLIER,
    "tsconfig.build.json": EARLIER,
    "engine/core/files/index.ts": EARLIER,
    "cli/main.ts": EARLIER,
    "schema/manifest.ts": EARLIER,
    "dist/engine/core/files/index.js": LATER,
    "dist/cli/main.js": LATER,
    "dist/schema/manifest.js": LATER,
  });

/** A build that writes every output now, as tsc does. */
const touchOutputs = (root: string): BuildResult => {
  for (const output of ["dist/engine/core/files/index.js", "dist/cli/main.js", "dist/schema/manifest.js"]) {
    mkdirSync(dirname(join(root, output)), { recursive: true });
    writeFileSync(join(root, output), "");
  }
  return { status: 0, output: "" };
};

/** A source written after the outputs were built. */
const edit = (root: string, file: string) => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), "export {};\n");
  utimesSync(join(root, file), EDITED, EDITED);
};

describe("whether dist/ is current", () => {
  it("finds nothing stale when every output is newer than its source", () => {
    expect(staleDist(current())).toEqual([]);
  });

  it("names a source edited after its output was built", () => {
    const root = current();
    edit(root, "engine/core/files/index.ts");
    expect(staleDist(root)).toEqual(["engine/core/files/index.ts is newer than dist/engine/core/files/index.js"]);
  });

  it("names the output of a new source that was never built", () => {
    const root = current();
    edit(root, "cli/new-command.ts");
    expect(staleDist(root)).toEqual(["dist/cli/new-command.js is missing (the build of cli/new-command.ts)"]);
  });

  it("counts a changed tsconfig, which shapes every output", () => {
    const root = current();
    edit(root, "tsconfig.build.json");
    expect(staleDist(root)).toEqual(["tsconfig.build.json is newer than the oldest file in dist/"]);
  });

  it("names a published schema edited after its standalone validator was built, and a validator never built", () => {
    const root = current();
    for (const file of ["scripts/build-validators.mjs", "eval-simulate.schema.json", "eval-simulate.evals.schema.json"]) edit(root, file);
    for (const file of ["eval-simulate.schema.json", "eval-simulate.evals.schema.json"]) utimesSync(join(root, file), EARLIER, EARLIER);
    mkdirSync(join(root, "dist/validators"));
    writeFileSync(join(root, "dist/validators/manifest.cjs"), "");
    utimesSync(join(root, "dist/validators/manifest.cjs"), LATER, LATER);
    expect(staleDist(root)).toEqual(["dist/validators/evals.cjs is missing (the standalone validator of eval-simulate.evals.schema.json)"]);
    edit(root, "eval-simulate.schema.json");
    expect(staleDist(root)).toContain("eval-simulate.schema.json is newer than dist/validators/manifest.cjs");
  });

  it("ignores tests and declaration files, which the build does not compile", () => {
    const root = current();
    edit(root, "engine/core/files/files.test.ts");
    edit(root, "engine/core/files/shapes.d.ts");
    expect(staleDist(root)).toEqual([]);
  });
});

describe("making dist/ current before process tests", () => {
  it("does not build when dist/ is current", () => {
    let builds = 0;
    expect(ensureFreshDist({ root: current(), build: () => (builds++, { status: 0, output: "" }) })).toEqual({ built: false, stale: [] });
    expect(builds).toBe(0);
  });

  it("builds once when a source is newer, and is current after", () => {
    const root = current();
    edit(root, "cli/main.ts");
    let builds = 0;
    const result = ensureFreshDist({ root, build: (at) => (builds++, touchOutputs(at)) });
    expect(result).toEqual({ built: true, stale: ["cli/main.ts is newer than dist/cli/main.js"] });
    expect(builds).toBe(1);
    expect(staleDist(root)).toEqual([]);
  });

  it("fails naming the stale file and the build's output when the build fails", () => {
    const root = current();
    edit(root, "cli/main.ts");
    edit(root, "schema/manifest.ts");
    expect(() => ensureFreshDist({ root, build: () => ({ status: 2, output: "cli/main.ts(1,1): error TS1005: ';' expected." }) })).toThrow(
      "[test] dist/ is stale: cli/main.ts is newer than dist/cli/main.js (and 1 more); the build (tsc -p tsconfig.build.json) failed:\ncli/main.ts(1,1): error TS1005: ';' expected.",
    );
  });

  it("fails naming the file a build left stale", () => {
    const root = current();
    edit(root, "engine/core/files/index.ts");
    expect(() => ensureFreshDist({ root, build: () => ({ status: 0, output: "" }) })).toThrow(
      "[test] dist/ is still stale after a build: engine/core/files/index.ts is newer than dist/engine/core/files/index.js",
    );
  });
});

describe("whether the viewer's bundle is current", () => {
  it("names a viewer source newer than dist/viewer/viewer.js, and a bundle never built", () => {
    const root = current();
    edit(root, "viewer/main.tsx");
    expect(staleDist(root)).toEqual(["dist/viewer/viewer.js is missing (the bundle of viewer/)"]);
    mkdirSync(join(root, "dist/viewer"), { recursive: true });
    writeFileSync(join(root, "dist/viewer/viewer.js"), "");
    utimesSync(join(root, "dist/viewer/viewer.js"), LATER, LATER);
    expect(staleDist(root)).toEqual(["viewer/main.tsx is newer than dist/viewer/viewer.js"]);
  });
});

describe("whether the package's bundle is current", () => {
  it("names a bundle older than tsc's files, than its own script, or than the packages it holds as installed", () => {
    const root = current();
    edit(root, "scripts/bundle.mjs");
    utimesSync(join(root, "scripts/bundle.mjs"), EARLIER, EARLIER);
    expect(staleDist(root)).toEqual(["dist/bundle-inputs.json is missing (the bundle of the package's entries)"]);
    mkdirSync(join(root, "dist"), { recursive: true });
    writeFileSync(join(root, "dist/bundle-inputs.json"), "{}");
    utimesSync(join(root, "dist/bundle-inputs.json"), LATER, LATER);
    expect(staleDist(root)).toEqual([]);
    edit(root, "scripts/bundle.mjs");
    expect(staleDist(root)).toEqual(["scripts/bundle.mjs is newer than dist/bundle-inputs.json (the bundle of the package's entries)"]);
    utimesSync(join(root, "scripts/bundle.mjs"), EARLIER, EARLIER);
    // npm rewrites it at every install: an SDK updated in node_modules is not yet in the bundle.
    edit(root, "node_modules/.package-lock.json");
    expect(staleDist(root)).toEqual(["node_modules/.package-lock.json is newer than dist/bundle-inputs.json (the bundle of the package's entries)"]);
  });
});
