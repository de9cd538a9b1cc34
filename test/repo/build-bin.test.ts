import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/examples.js";

// `npm link` of a clone links the bin to dist/cli/main.js as `npm run build` left it: without its
// execute bit the linked `eval-simulate` is "permission denied". Built in a copy of the sources,
// so the dist/ other tests run is not rebuilt under them, in a folder whose name has a space (a
// clone under "My Projects"): the build's scripts read file paths, not URLs' percent-escapes.

const work = mkdtempSync(join(tmpdir(), "eval-simulate build-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("npm run build", () => {
  it("leaves the bin executable, runnable by its path as a linked clone runs it, from a folder with a space in its name", () => {
    for (const entry of [
      "package.json",
      "tsconfig.json",
      "tsconfig.build.json",
      "eval-simulate.schema.json",
      "eval-simulate.evals.schema.json",
      "engine",
      "cli",
      "schema",
      "scripts",
      "viewer",
    ]) {
      cpSync(join(ROOT, entry), join(work, entry), { recursive: true });
    }
    symlinkSync(join(ROOT, "node_modules"), join(work, "node_modules"));
    execFileSync("npm", ["run", "build"], { cwd: work, stdio: "ignore" });
    const bin = join(work, "dist/cli/main.js");
    expect(statSync(bin).mode & 0o111).toBe(0o111);
    expect(execFileSync(bin, ["--help"], { cwd: work, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })).toMatch(/USAGE/);
  }, 120_000);
});
