import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { capture } from "../../engine/author/capture/capture.js";
import { trimDocument } from "../../engine/author/capture/trim-document.js";
import { runCli } from "../support/cli-process.js";

/** GitHub's real description, as captured for examples/github: a real document to trim further. */
const GITHUB = new URL("../../examples/github/api/github/openapi.yaml", import.meta.url).pathname;
const github = () => parse(readFileSync(GITHUB, "utf8"));

function danglingRefs(document: Record<string, unknown>): string[] {
  const text = JSON.stringify(document);
  const refs = [...text.matchAll(/"\$ref":"#\/components\/([^/"]+)\/([^"]+)"/g)];
  const components = document.components as Record<string, Record<string, unknown>>;
  return refs.filter(([, kind, name]) => !components?.[kind]?.[name.replace(/~1/g, "/").replace(/~0/g, "~")]).map(([ref]) => ref);
}

function workspace(manifest: string): string {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-capture-"));
  writeFileSync(join(dir, "fakes.yaml"), manifest);
  cpSync(GITHUB, join(dir, "github.yaml"));
  return dir;
}

describe("trimming a published description", () => {
  it("keeps the operations named and every component they reach, and nothing else", () => {
    const trimmed = trimDocument(github(), ["issues/get"]);
    expect(Object.keys(trimmed.paths as object)).toEqual(["/repos/{owner}/{repo}/issues/{issue_number}"]);
    expect(Object.keys((trimmed.paths as Record<string, object>)["/repos/{owner}/{repo}/issues/{issue_number}"])).toEqual(["get"]);
    expect(danglingRefs(trimmed)).toEqual([]);
    const schemas = Object.keys((trimmed.components as { schemas: object }).schemas);
    expect(schemas).toContain("issue");
    expect(schemas).not.toContain("issue-comment");
  });

  it("names each operation it cannot find, with the nearest", () => {
    expect(() => trimDocument(github(), ["GET /repos/{owner}/{repo}/issue", "issues/gett"])).toThrow(
      /no operation "GET \/repos\/\{owner\}\/\{repo\}\/issue" \(did you mean "GET \/repos\/\{owner\}\/\{repo\}\/issues"\?\), "issues\/gett" \(did you mean "issues\/get"\?\)/,
    );
  });

  it("applies the recorded corrections: dropped required fields and added responses", () => {
    const trimmed = trimDocument(github(), ["POST /repos/{owner}/{repo}/issues"], {
      dropRequired: ["title"],
      addResponses: { "issues/create": { "429": { description: "Too many requests" } } },
    });
    const create = (trimmed.paths as Record<string, Record<string, Record<string, unknown>>>)["/repos/{owner}/{repo}/issues"].post;
    expect(Object.keys(create.responses as object)).toContain("429");
    expect(JSON.stringify(create.requestBody)).not.toContain('"required":["title"]');
  });
});

describe("eval-simulate capture", () => {
  it("writes the trimmed document and records the capture in the manifest, keeping its comments", async () => {
    const dir = workspace("# my fakes\nversion: 1\napis:\n  github:\n    hosts: [api.github.com] # forwarded by egress\n");
    const result = await capture({
      manifest: join(dir, "fakes.yaml"),
      id: "github",
      spec: join(dir, "github.yaml"),
      operations: ["issues/list-for-repo", "issues/get"],
    });
    expect(result.file).toBe(join(dir, "api/github/openapi.yaml"));
    const manifest = readFileSync(join(dir, "fakes.yaml"), "utf8");
    expect(manifest).toContain("# my fakes");
    expect(manifest).toContain("# forwarded by egress");
    expect(parse(manifest).apis.github).toEqual({
      hosts: ["api.github.com"],
      openapi: "api/github/openapi.yaml",
      capture: { source: "github.yaml", operations: ["issues/list-for-repo", "issues/get"] },
    });
    expect(Object.keys(parse(readFileSync(result.file, "utf8")).paths)).toEqual([
      "/repos/{owner}/{repo}/issues",
      "/repos/{owner}/{repo}/issues/{issue_number}",
    ]);
  });

  it("re-reads the manifest's capture, and --check names each operation that differs", async () => {
    const dir = workspace("version: 1\napis: {}\n");
    await capture({ manifest: join(dir, "fakes.yaml"), id: "github", spec: join(dir, "github.yaml"), operations: ["issues/get", "issues/create"] });
    expect((await capture({ manifest: join(dir, "fakes.yaml"), id: "github", check: true })).differing).toEqual([]);
    const file = join(dir, "api/github/openapi.yaml");
    const document = parse(readFileSync(file, "utf8"));
    document.paths["/repos/{owner}/{repo}/issues"].post.summary = "Edited by hand";
    writeFileSync(file, JSON.stringify(document));
    const cli = await runCli(["capture", "github", "--manifest", join(dir, "fakes.yaml"), "--check"]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain("differs from a fresh capture in:\n  issues/create\n");
    expect(cli.stdout).not.toContain("issues/get");
  });
});
