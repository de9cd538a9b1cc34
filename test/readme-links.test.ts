import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/examples.js";

// The README and the docs it links stand alone for a user of the published package: every local
// link leads to a file the package ships (its `files`), and none leads outside the repository.
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[] };
const shipped = (file: string) => pkg.files.some((entry) => file === entry || file.startsWith(`${entry.replace(/\/$/, "")}/`));

function localLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((href) => !/^(https?:|mailto:|#)/.test(href)).map((href) => href.split("#")[0]);
}

describe("the README's links", () => {
  it.each(["README.md", "ARCHITECTURE.md"])("%s links only to files the package ships, inside it", (doc) => {
    for (const href of localLinks(readFileSync(join(ROOT, doc), "utf8"))) {
      expect(href, `${doc} links ${href}`).not.toMatch(/^\.\.\//);
      expect(existsSync(join(ROOT, href)), `${doc} links ${href}, which does not exist`).toBe(true);
      if (doc === "README.md") expect(shipped(href), `${doc} links ${href}, which the package does not ship`).toBe(true);
    }
  });
});
