import { request as httpRequest } from "node:http";
import { Octokit } from "@octokit/rest";
import { afterEach, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import type { FaultManifest } from "../../engine/author/model/types.js";
import { examples } from "../support/examples.js";
import { serve } from "../support/services.js";

const GITHUB = examples().find(([name]) => name === "github")![1];

/** A request as an egress proxy forwards it: the real API's Host, and the session in a header. */
function byHost(
  port: number,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: body === undefined ? "GET" : "POST",
        headers: { host: "api.github.com", "content-type": "application/json", accept: "application/vnd.github+json", ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

describe("API fakes in sessions", () => {
  let services: Services;
  afterEach(() => services?.close());

  it("serves a session's API under /s/<sid>/, its links keeping the session's prefix, its writes its own", async () => {
    services = await serve(GITHUB, { warn: () => {} });
    const session = await services.createSession({ id: "gh-1" });
    const base = session.baseUrl("github");
    expect(base).toBe(`${services.origin}/s/gh-1/github`);
    const octokit = new Octokit({ baseUrl: base, auth: "ghp_secret_token" });
    // Pagination follows the Link headers: they must lead back into the session.
    const pages = await octokit.paginate(octokit.rest.issues.listForRepo, { owner: "acme", repo: "widgets", state: "all", per_page: 2 });
    expect(pages.map((issue) => issue.number)).toEqual([3, 2, 1]);
    const first = await octokit.rest.issues.listForRepo({ owner: "acme", repo: "widgets", state: "all", per_page: 1 });
    expect(first.headers.link).toContain(`<${base}/repos/acme/widgets/issues?`);
    const { data: created } = await octokit.rest.issues.create({ owner: "acme", repo: "widgets", title: "Only in gh-1" });
    expect(created.url).toBe(`${base}/repos/acme/widgets/issues/4`);
    expect((session.states.github as { issues: unknown[] }).issues).toHaveLength(4);
    expect((services.states.github as { issues: unknown[] }).issues).toHaveLength(3);
    // The admin routes of a session's API fake are under its prefix too.
    const state = await (await fetch(`${base}/admin/state`)).json();
    expect(state.issues).toHaveLength(4);
    expect(session.calls("github").map((c) => c.name)).toContain("POST /repos/{owner}/{repo}/issues");
    expect(services.calls()).toEqual([]);
  });

  it("routes traffic addressed by Host to the session its EvalSimulate-Session header names", async () => {
    services = await serve(GITHUB, { warn: () => {} });
    const one = await services.createSession({ id: "proxied-1" });
    const two = await services.createSession({ id: "proxied-2" });
    const made = await byHost(services.port, "/repos/acme/widgets/issues", { "EvalSimulate-Session": "proxied-1" }, { title: "Through the proxy" });
    expect(made.status).toBe(201);
    // By Host, the real API's links stay as they are.
    expect(JSON.parse(made.body).url).toBe("https://api.github.com/repos/acme/widgets/issues/4");
    const issues = (states: Record<string, unknown>) => (states.github as { issues: Array<{ title: string }> }).issues.map((i) => i.title);
    expect(issues(one.states)).toContain("Through the proxy");
    expect(issues(two.states)).not.toContain("Through the proxy");
    expect(issues(services.states)).not.toContain("Through the proxy");
    const listed = await byHost(services.port, "/repos/acme/widgets/issues?state=all", { "EvalSimulate-Session": "proxied-2" });
    expect(JSON.parse(listed.body)).toHaveLength(3);
    const unknown = await byHost(services.port, "/repos/acme/widgets/issues", { "EvalSimulate-Session": "nobody" });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ error: "unknown_session", session: "nobody" });
    // Without the header, Host traffic is the process's own world's, as before.
    expect(JSON.parse((await byHost(services.port, "/repos/acme/widgets/issues?state=all", {})).body)).toHaveLength(3);
  });

  it("draws a session's faults from its seed: the same seed fails the same requests, another seed others", async () => {
    const fault: FaultManifest = {
      fake: "github",
      target: "issues/list-for-repo",
      http: "empty_response",
      rate: 0.5,
      seed: 11,
      source: { file: "test", line: 1, column: 1, path: "faults[0]" },
    };
    services = await serve(GITHUB, { warn: () => {}, faults: { triage: [fault] } });
    const pattern = async (seed: number) => {
      const session = await services.createSession({ seed });
      const outcomes: string[] = [];
      for (let i = 0; i < 16; i++) {
        const answered = await fetch(`${session.baseUrl("github")}/repos/acme/widgets/issues`, { headers: { connection: "close" } }).then(
          (r) => String(r.status),
          () => "failed",
        );
        outcomes.push(answered);
      }
      return outcomes.join(" ");
    };
    const first = await pattern(1);
    expect(first).toContain("failed");
    expect(first).toContain("200");
    expect(await pattern(1)).toBe(first);
    expect(await pattern(2)).not.toBe(first);
  });
});
