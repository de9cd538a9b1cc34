import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/examples.js";

// The README and the docs it links stand alone for a user of the published package: every local
// link leads to a file the package ships (its `files`) inside the repository, every `#anchor` to
// a heading that exists, and every doc is reachable from the README's contents.
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[] };
const shipped = (file: string) => pkg.files.some((entry) => file === entry || file.startsWith(`${entry.replace(/\/$/, "")}/`));

/** The Markdown outside fenced code blocks, where links and headings mean something. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, "");
}

/** Every link target of a Markdown file, as written. */
function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((href) => !/^(https?:|mailto:)/.test(href));
}

/** The anchors GitHub gives a file's headings: text lowercased, punctuation dropped, spaces to dashes, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const plain = text.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*]/g, "");
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

/** README.md and ARCHITECTURE.md, then every Markdown file they link, and every one those link. */
function linkedDocs(): string[] {
  const docs = ["README.md", "ARCHITECTURE.md"];
  for (let i = 0; i < docs.length; i++) {
    for (const href of links(readFileSync(join(ROOT, docs[i]), "utf8"))) {
      const [path] = href.split("#");
      if (!path.endsWith(".md")) continue;
      const file = relative(ROOT, resolve(ROOT, dirname(docs[i]), path));
      if (existsSync(join(ROOT, file)) && !docs.includes(file)) docs.push(file);
    }
  }
  return docs;
}

const docs = linkedDocs();

describe("the README's and the docs' links", () => {
  it.each(docs)("%s links only to files inside the package that the package ships", (doc) => {
    for (const href of links(readFileSync(join(ROOT, doc), "utf8"))) {
      const [path] = href.split("#");
      if (path === "") continue;
      expect(href, `${doc} links ${href}, a shared folder outside the package`).not.toMatch(/(^|\/)\.\.\/shared\//);
      const file = relative(ROOT, resolve(ROOT, dirname(doc), path));
      expect(file.startsWith(".."), `${doc} links ${href}, outside the repository`).toBe(false);
      expect(existsSync(join(ROOT, file)), `${doc} links ${href}, which does not exist`).toBe(true);
      expect(shipped(file), `${doc} links ${href}, which the package does not ship (add it to package.json's files)`).toBe(true);
    }
  });

  it.each(docs)("%s links only to anchors that exist", (doc) => {
    for (const href of links(readFileSync(join(ROOT, doc), "utf8"))) {
      const [path, anchor] = href.split("#");
      if (anchor === undefined) continue;
      const file = path === "" ? doc : relative(ROOT, resolve(ROOT, dirname(doc), path));
      if (!file.endsWith(".md")) continue;
      expect([...anchors(readFileSync(join(ROOT, file), "utf8"))], `${doc} links ${href}: no such heading in ${file}`).toContain(anchor);
    }
  });

  it("reaches every doc in docs/ from the README, each one click away", () => {
    const fromReadme = new Set(links(readFileSync(join(ROOT, "README.md"), "utf8")).map((href) => href.split("#")[0]));
    const unlinked = readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md") && !fromReadme.has(`docs/${name}`));
    expect(unlinked).toEqual([]);
  });

  it("links every section of every doc from the README or from the doc's own contents", () => {
    const readmeLinks = links(readFileSync(join(ROOT, "README.md"), "utf8"));
    const unlinked: string[] = [];
    for (const name of readdirSync(join(ROOT, "docs")).filter((entry) => entry.endsWith(".md"))) {
      const text = readFileSync(join(ROOT, "docs", name), "utf8");
      const linked = new Set([
        ...readmeLinks.filter((href) => href.startsWith(`docs/${name}#`)).map((href) => href.split("#")[1]),
        ...links(text)
          .filter((href) => href.startsWith("#"))
          .map((href) => href.slice(1)),
      ]);
      for (const [, heading] of prose(text).matchAll(/^##\s+(.+)$/gm)) {
        const [slug] = [...anchors(`## ${heading}`)];
        if (!linked.has(slug)) unlinked.push(`docs/${name}#${slug}`);
      }
    }
    expect(unlinked).toEqual([]);
  });

  it("finds anchors as GitHub names them", () => {
    expect([
      ...anchors("# Running evals: `eval-simulate eval`\n## `eval-simulate/checks` and `eval-simulate check`\n## Limits\n## Limits\n```\n# not a heading\n```"),
    ]).toEqual(["running-evals-eval-simulate-eval", "eval-simulatechecks-and-eval-simulate-check", "limits", "limits-1"]);
  });
});
