import { mkdtempSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { examples } from "../support/examples.js";
import { connect, serve, textOf } from "../support/services.js";

const GITHUB_EXAMPLE = examples().find(([name]) => name === "github")![1];
const temp = () => mkdtempSync(join(tmpdir(), "eval-simulate-api-"));

/** A request as an eval's egress forwards it: to the host's port, with the real API's Host. */
function byHost(
  port: number,
  host: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: init.method ?? "GET",
        headers: { host, "content-type": "application/json", accept: "application/vnd.github+json" },
      },
      (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

describe("API fakes on the shared port", () => {
  let services: Services;
  let dir: string;
  beforeEach(async () => {
    dir = temp();
    services = await serve(GITHUB_EXAMPLE, { record: join(dir, "calls.jsonl"), manifestDir: join(dir, "manifests") });
  });
  afterEach(() => services.close());

  it("serves a real API client given the base URL, with pagination links that lead back to it", async () => {
    const octokit = new Octokit({ baseUrl: services.baseUrl("github"), auth: "ghp_secret_token" });
    const pages = await octokit.paginate(octokit.rest.issues.listForRepo, { owner: "acme", repo: "widgets", state: "all", per_page: 2 });
    expect(pages.map((i) => i.number)).toEqual([3, 2, 1]);
    const { data: created } = await octokit.rest.issues.create({ owner: "acme", repo: "widgets", title: "Saving a filter times out", labels: ["bug"] });
    expect(created.number).toBe(4);
    expect(created.url).toBe(`${services.baseUrl("github")}/repos/acme/widgets/issues/4`);
    const { data: comment } = await octokit.rest.issues.createComment({ owner: "acme", repo: "widgets", issue_number: 4, body: "From SUP-102" });
    expect(comment.issue_url).toBe(created.url);
    const state = await (await fetch(`http://127.0.0.1:${services.port}/github/admin/state`)).json();
    expect(state.issues).toHaveLength(4);
    expect(state.issues[3]).toMatchObject({ title: "Saving a filter times out", comments: 1, url: "https://api.github.com/repos/acme/widgets/issues/4" });
    expect(state.comments).toHaveLength(1);
  });

  it("answers traffic addressed to the real API's Host, leaving its links as they are", async () => {
    const listed = await byHost(services.port, "api.github.com", "/repos/acme/widgets/issues?per_page=1");
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body)[0].url).toBe("https://api.github.com/repos/acme/widgets/issues/2");
    expect(listed.headers.link).toContain("<https://api.github.com/repos/acme/widgets/issues?state=open&per_page=1&page=2>");
    const missing = await byHost(services.port, "api.github.com", "/repos/acme/widgets/pulls");
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ matched: false });
  });

  it("refuses a bad request with 400 naming each problem, changing nothing", async () => {
    const response = await fetch(`${services.baseUrl("github")}/repos/acme/widgets/issues?per_page=many&state=weird`);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.problems.map((p: { name: string }) => p.name).sort()).toEqual(["per_page", "state"]);
    const create = await fetch(`${services.baseUrl("github")}/repos/acme/widgets/issues`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ body: "no title" }),
    });
    expect(create.status).toBe(400);
    expect(services.states.github.issues).toHaveLength(3);
  });

  it("records API calls by operation, journals them redacted, and writes their manifest", async () => {
    const octokit = new Octokit({ baseUrl: services.baseUrl("github"), auth: "ghp_secret_token" });
    await octokit.rest.issues.get({ owner: "acme", repo: "widgets", issue_number: 1 });
    const lines = readFileSync(join(dir, "calls.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({
      api: "github",
      operation: "GET /repos/{owner}/{repo}/issues/{issue_number}",
      request: { params: { owner: "acme", issue_number: 1 } },
      response: { status: 200 },
    });
    expect(lines[0].request.headers.authorization).toBe("[REDACTED]");
    const [entry] = services.calls("github");
    expect(entry).toMatchObject({ kind: "api", name: "GET /repos/{owner}/{repo}/issues/{issue_number}", status: 200, matched: true });
    expect(JSON.stringify(services.calls())).not.toContain("ghp_secret_token");
    const manifest = JSON.parse(readFileSync(join(dir, "manifests/api/github/manifest.json"), "utf8"));
    expect(manifest.operations["issues/create-comment"]).toEqual({
      method: "POST",
      path: "/repos/{owner}/{repo}/issues/{issue_number}/comments",
      reads: ["issues"],
      writes: ["issues", "comments"],
    });
  });

  it("serves one world across an MCP fake and an API fake", async () => {
    const client = await connect(services.url("tracker"));
    const ticket = await client.callTool({ name: "get-ticket", arguments: { key: "SUP-101" } });
    const issue = await (await fetch(`${services.baseUrl("github")}/repos/acme/widgets/issues/1`)).json();
    expect((ticket.structuredContent as { github_issue: string }).github_issue).toBe(issue.html_url);
    const linked = await client.callTool({ name: "link-ticket", arguments: { key: "SUP-102", issue_url: "https://github.com/acme/widgets/issues/2" } });
    expect(textOf(linked)).toBe("Linked SUP-102 to https://github.com/acme/widgets/issues/2");
    expect(services.states.tracker.tickets).toContainEqual(
      expect.objectContaining({ key: "SUP-102", github_issue: "https://github.com/acme/widgets/issues/2" }),
    );
    await client.close();
  });
});

describe("API stubs and faults", () => {
  it("plays a scenario's stubbed status, then passes to the handler", async () => {
    const services = await serve(GITHUB_EXAMPLE, { scenario: "github-down" });
    const create = () =>
      fetch(`${services.baseUrl("github")}/repos/acme/widgets/issues`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "Retry me" }),
      });
    expect((await create()).status).toBe(503);
    expect(services.states.github.issues).toHaveLength(3);
    expect((await create()).status).toBe(201);
    expect(services.states.github.issues).toHaveLength(4);
    await services.close();
  });

  it("fails connections as an HTTP fault says: reset, empty, malformed", async () => {
    const { loadFakes } = await import("../../engine/author/fakes/load-fakes.js");
    const { startServices } = await import("../../engine/serve/host/start-services.js");
    const { fakes, world } = await loadFakes(GITHUB_EXAMPLE);
    const at = (http: "connection_reset" | "empty_response" | "malformed_body") => ({
      ...world,
      faults: { triage: [{ fake: "github", target: "issues/get", http, rate: 1, seed: 1, source: { file: "", line: 1, column: 1, path: "" } }] },
    });
    for (const http of ["connection_reset", "empty_response"] as const) {
      const services = await startServices(fakes, { world: at(http) });
      await expect(fetch(`${services.baseUrl("github")}/repos/acme/widgets/issues/1`)).rejects.toThrow();
      await services.close();
    }
    const services = await startServices(fakes, { world: at("malformed_body") });
    const response = await fetch(`${services.baseUrl("github")}/repos/acme/widgets/issues/1`);
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
    expect(services.calls("github")[0]).toMatchObject({ status: 200, error: "fault: malformed_body" });
    await services.close();
  });
});
