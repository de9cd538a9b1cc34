import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GITHUB, serveApi, type ServedApi } from "./serve-api.js";

describe("the GitHub fake through @octokit/rest", () => {
  let github: ServedApi;
  let octokit: Octokit;
  beforeAll(async () => {
    github = await serveApi(GITHUB, "github");
    octokit = new Octokit({ baseUrl: github.baseUrl, auth: "test-token" });
  });
  afterAll(() => github?.close());

  it("pages through issues by the rewritten Link header", async () => {
    const issues = await octokit.paginate(octokit.rest.issues.listForRepo, { owner: "octo", repo: "hello", per_page: 2 });
    expect(issues.map((i: { number: number }) => i.number)).toEqual([1, 3, 4, 5]);
    expect(github.outcomes.filter((o) => o.operationName === "issues/list-for-repo").map((o) => o.request.query.page)).toEqual([1, 2]);
  });

  it("creates an issue and a comment, and reads them back", async () => {
    const { data: issue, status } = await octokit.rest.issues.create({ owner: "octo", repo: "hello", title: "From octokit", labels: ["bug"] });
    expect(status).toBe(201);
    expect(issue).toMatchObject({ number: 6, title: "From octokit", url: `${github.baseUrl}/repos/octo/hello/issues/6` });
    const { data: comment } = await octokit.rest.issues.createComment({ owner: "octo", repo: "hello", issue_number: 6, body: "Looking" });
    expect(comment.issue_url).toBe(issue.url);
    const { data: again } = await octokit.rest.issues.get({ owner: "octo", repo: "hello", issue_number: 6 });
    expect(again.title).toBe("From octokit");
    expect(github.store.states.github.comments).toHaveLength(3);
  });

  it("surfaces the fake's 404 and 400 answers as octokit's RequestErrors", async () => {
    await expect(octokit.rest.issues.get({ owner: "octo", repo: "hello", issue_number: 77 })).rejects.toMatchObject({ status: 404 });
    await expect(octokit.rest.issues.listForRepo({ owner: "octo", repo: "hello", per_page: 500 })).rejects.toMatchObject({ status: 400 });
  });
});
