import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RecipeFiles } from "../../engine/author/manifest/recipe-files.js";
import { loadManifests } from "../../engine/judge/verify/load-manifests.js";

const root = mkdtempSync(join(tmpdir(), "eval-simulate-files-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const recipe = join(root, "recipe");
mkdirSync(join(recipe, "mcp", "notes"), { recursive: true });
mkdirSync(join(root, "elsewhere"));
writeFileSync(join(recipe, "mcp", "notes", "tools.json"), "[]");
writeFileSync(join(root, "elsewhere", "tools.json"), "[]");

describe("the files a manifest may name", () => {
  it("reads regular files in the folder and below, through symlinks that stay inside", () => {
    symlinkSync(join(recipe, "mcp", "notes", "tools.json"), join(recipe, "alias.json"));
    const files = new RecipeFiles(recipe, { allowOutside: false });
    expect(files.read("mcp/notes/tools.json")).toEqual({ ok: true, text: "[]", file: join(recipe, "mcp", "notes", "tools.json") });
    expect(files.read("alias.json").ok).toBe(true);
  });

  it("refuses a path outside, and a symlink or a folder link leading out, unless allowed", () => {
    symlinkSync(join(root, "elsewhere"), join(recipe, "linked-folder"));
    const files = new RecipeFiles(recipe, { allowOutside: false });
    for (const name of ["../elsewhere/tools.json", join(root, "elsewhere", "tools.json"), "linked-folder/tools.json"]) {
      const read = files.read(name);
      expect(read.ok, name).toBe(false);
      expect(!read.ok && read.reason).toMatch(/outside the Recipe's folder/);
    }
    expect(new RecipeFiles(recipe, { allowOutside: true }).read("linked-folder/tools.json").ok).toBe(true);
  });

  it("refuses folders, devices, FIFOs and files past the size cap, saying what each is", () => {
    execFileSync("mkfifo", [join(recipe, "pipe.json")]);
    writeFileSync(join(recipe, "big.json"), "x".repeat(2048));
    const files = new RecipeFiles(recipe, { allowOutside: true, maxBytes: 1024 });
    const reason = (name: string) => {
      const read = files.read(name);
      return read.ok ? "read" : read.reason;
    };
    expect(reason("mcp")).toBe("is a folder, not a regular file");
    expect(reason("pipe.json")).toBe("is a named pipe (FIFO), not a regular file");
    expect(reason("/dev/zero")).toBe("is a device, not a regular file");
    expect(reason("/proc/self/environ")).toBe("is a system pseudo-file, not a Recipe's file");
    expect(reason("big.json")).toMatch(/is larger than/);
    expect(reason("missing.json")).toBe("does not exist");
  });

  it("keeps verify from hanging on a FIFO named as a manifest", () => {
    const pipe = join(root, "manifests.yaml");
    execFileSync("mkfifo", [pipe]);
    expect(() => loadManifests(pipe)).toThrow(/named pipe/);
  });
});
