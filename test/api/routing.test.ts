import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GITHUB, GRAPH, serveApi, type ServedApi } from "./serve-api.js";

describe("routing API requests by path template and method", () => {
  let github: ServedApi;
  let graph: ServedApi;
  beforeAll(async () => {
    [github, graph] = await Promise.all([serveApi(GITHUB, "github"), serveApi(GRAPH, "graph")]);
  });
  afterAll(() => Promise.all([github.close(), graph.close()]));

  it("routes a literal segment before a template: /issues/comments is not issue number 'comments'", async () => {
    const comments = await fetch(`${github.url}/repos/octo/hello/issues/comments`);
    expect(comments.status).toBe(200);
    expect((await comments.json()).map((c: { id: number }) => c.id)).toEqual([501, 502]);
    expect(github.outcomes.at(-1)).toMatchObject({
      operation: "GET /repos/{owner}/{repo}/issues/comments",
      operationName: "issues/list-comments-for-repo",
      matched: true,
    });
    const issue = await fetch(`${github.url}/repos/octo/hello/issues/1`);
    expect(issue.status).toBe(200);
    expect(github.outcomes.at(-1)?.operationName).toBe("issues/get");
  });

  it("routes a parameter whose name has a dash, coerced to its type", async () => {
    const response = await fetch(`${github.url}/repos/octo/hello/issues/comments/502`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 502, body: "Fixed in main?" });
    expect(github.outcomes.at(-1)?.request.params).toEqual({ owner: "octo", repo: "hello", "comment-id": 502 });
  });

  it("routes templates with literal colons, an item path across segments, and percent-encoding", async () => {
    const plain = await fetch(`${graph.baseUrl}/me/drive/root:/notes/todo.txt:/content`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("text/plain");
    expect(await plain.text()).toBe("buy milk");
    const encoded = await fetch(`${graph.baseUrl}/me/drive/root%3A/notes%2Ftodo.txt%3A/content`);
    expect(await encoded.text()).toBe("buy milk");
    const odd = await fetch(`${graph.baseUrl}/me/drive/root:/a%20b/c%25d.txt:/content`);
    expect(await odd.text()).toBe("odd name");
    expect(graph.outcomes.at(-1)?.request.params).toEqual({ "item-path": "a b/c%d.txt" });
    // The literal route beside it still wins its own path.
    expect((await fetch(`${graph.baseUrl}/me/drive/root/children`)).status).toBe(200);
  });

  it("decodes percent-encoded path parameters, an encoded slash included", async () => {
    const response = await fetch(`${graph.baseUrl}/me/messages/m%2D01`);
    expect(response.status).toBe(200);
    expect((await response.json()).id).toBe("m-01");
    await fetch(`${github.url}/repos/octo/hello%2Fx/issues/1`);
    expect(github.outcomes.at(-1)?.request.params).toMatchObject({ repo: "hello/x" });
  });

  it("refuses malformed percent-encoding in a path with 400", async () => {
    const response = await fetch(`${github.url}/repos/octo/hello/issues/%E0%A4%A`);
    expect(response.status).toBe(400);
    expect((await response.json()).problems[0]).toMatchObject({ in: "path" });
  });

  it("serves operations under the document's base path and says so for a path outside it", async () => {
    expect(graph.baseUrl).toBe(`${graph.url}/v1.0`);
    expect((await fetch(`${graph.url}/v1.0/me/messages`)).status).toBe(200);
    const outside = await fetch(`${graph.url}/me/messages`);
    expect(outside.status).toBe(404);
    const body = await outside.json();
    expect(body).toMatchObject({
      matched: false,
      error: "no_route",
      nearest: ["GET /me/messages", "GET /me/messages/{message-id}", "POST /me/messages/{message-id}/send"],
    });
    expect(body.message).toContain("under /v1.0");
  });

  it("answers an unmatched route 404 with matched: false and the nearest operations", async () => {
    const response = await fetch(`${github.url}/repos/octo/hello/isues`);
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.matched).toBe(false);
    expect(body.error).toBe("no_route");
    expect(body.nearest[0]).toBe("GET /repos/{owner}/{repo}/issues");
    expect(body.nearest.length).toBeLessThanOrEqual(3);
    expect(body.message).toContain("no operation of github matches GET /repos/octo/hello/isues");
    expect(github.outcomes.at(-1)).toMatchObject({ matched: false, operation: "", response: { status: 404 } });
  });

  it("answers a path that matches with the wrong method 405, with Allow", async () => {
    const response = await fetch(`${github.url}/repos/octo/hello/issues`, { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(await response.json()).toMatchObject({ matched: false, error: "method_not_allowed", allow: ["GET", "HEAD", "POST"] });
  });

  it("says when a method is in the document but the fake does not serve it", async () => {
    const response = await fetch(`${github.url}/repos/octo/hello/issues/comments/501`, { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect((await response.json()).message).toContain(
      "DELETE /repos/{owner}/{repo}/issues/comments/{comment-id} is in the document, but github does not serve it",
    );
  });

  it("treats a trailing slash as the same resource", async () => {
    expect((await fetch(`${github.url}/repos/octo/hello/issues/`)).status).toBe(200);
  });

  it("answers HEAD as GET, without a body", async () => {
    const response = await fetch(`${github.url}/repos/octo/hello/issues/1`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe("");
  });

  it("serves a request addressed by Host, its links left on the real origin", async () => {
    const response = await github.fetch(new Request("https://api.github.com/repos/octo/hello/issues?per_page=1"));
    expect(response.status).toBe(200);
    expect(response.headers.get("link")).toMatch(/^<https:\/\/api\.github\.com\/repos\/octo\/hello\/issues\?state=open&per_page=1&page=2>; rel="next"/);
    expect((await response.json())[0].url).toBe("https://api.github.com/repos/octo/hello/issues/1");
  });
});
