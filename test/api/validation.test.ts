import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GITHUB, GRAPH, json, serveApi, type ServedApi } from "./serve-api.js";

type Issue = { number: number; locked: boolean };

describe("validating API requests against the document", () => {
  let github: ServedApi;
  let graph: ServedApi;
  beforeAll(async () => {
    [github, graph] = await Promise.all([serveApi(GITHUB, "github"), serveApi(GRAPH, "graph")]);
  });
  afterAll(() => Promise.all([github.close(), graph.close()]));

  const issues = () => `${github.url}/repos/octo/hello/issues`;

  it("coerces query parameters to their types and fills defaults before the handler sees them", async () => {
    await fetch(issues());
    const seen = github.outcomes.at(-1)!.request;
    expect(seen.query).toEqual({ state: "open", per_page: 30, page: 1 });
    expect(seen.headers["x-github-api-version"]).toBe("2022-11-28");
    const paged = await fetch(`${issues()}?per_page=2&page=2&state=all`);
    expect((await paged.json()).map((i: { number: number }) => i.number)).toEqual([3, 4]);
    expect(github.outcomes.at(-1)!.request.query).toEqual({ per_page: 2, page: 2, state: "all" });
  });

  it("passes undeclared query parameters through as text", async () => {
    await fetch(`${issues()}?utm=x&tag=a&tag=b`);
    expect(github.outcomes.at(-1)!.request.query).toMatchObject({ utm: "x", tag: ["a", "b"] });
  });

  it("reads an exploded array query parameter from repeated keys, and one key as a one-item array", async () => {
    await fetch(`${issues()}?assignees=ada&assignees=bob`);
    expect(github.outcomes.at(-1)!.request.query.assignees).toEqual(["ada", "bob"]);
    await fetch(`${issues()}?assignees=ada`);
    expect(github.outcomes.at(-1)!.request.query.assignees).toEqual(["ada"]);
  });

  it("splits a non-exploded array parameter on commas (OpenAPI 3.1)", async () => {
    const response = await fetch(`${graph.baseUrl}/me/messages?$top=2&$select=id,subject`);
    expect(response.status).toBe(200);
    expect((await response.json()).value).toEqual([
      { id: "m-01", subject: "Welcome" },
      { id: "m-02", subject: "Lunch?" },
    ]);
    const bad = await fetch(`${graph.baseUrl}/me/messages?$select=id,bogus&$top=0`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).problems).toEqual([
      { in: "query", name: "$top", message: "must be >= 1" },
      { in: "query", name: "$select", path: "/1", message: "must be equal to one of the allowed values" },
    ]);
  });

  it("refuses bad query and header parameters with 400, naming every problem, and changes nothing", async () => {
    const before = github.store.states.github;
    const response = await fetch(`${issues()}?per_page=500&page=zero&state=shut&since=yesterday`, { headers: { "X-GitHub-Api-Version": "1999-01-01" } });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error).toBe("bad_request");
    expect(body.problems).toEqual([
      { in: "query", name: "state", message: "must be equal to one of the allowed values" },
      { in: "query", name: "since", message: 'must match format "date-time"' },
      { in: "query", name: "per_page", message: "must be <= 100" },
      { in: "query", name: "page", message: "must be integer" },
      { in: "header", name: "X-GitHub-Api-Version", message: "must be equal to one of the allowed values" },
    ]);
    expect(body.message).toContain("5 problems: query state must be equal to one of the allowed values; query since");
    expect(github.store.states.github).toEqual(before);
  });

  it("refuses a path parameter of the wrong type", async () => {
    const response = await fetch(`${issues()}/abc`);
    expect(response.status).toBe(400);
    expect((await response.json()).problems).toEqual([{ in: "path", name: "issue_number", message: "must be integer" }]);
  });

  it("refuses a body outside its schema, naming each problem (OpenAPI 3.0 nullable and exclusiveMinimum)", async () => {
    const count = (github.store.states.github.issues as Issue[]).length;
    const response = await fetch(issues(), json("POST", { body: 5, milestone: 0, labels: ["ok", 3] }));
    expect(response.status).toBe(400);
    expect((await response.json()).problems).toEqual([
      { in: "body", path: "/title", message: "must have required property 'title'" },
      { in: "body", path: "/body", message: "must be string,null" },
      { in: "body", path: "/labels/1", message: "must be string" },
      { in: "body", path: "/milestone", message: "must be > 0" },
    ]);
    expect((github.store.states.github.issues as Issue[]).length).toBe(count);
    const nullable = await fetch(issues(), json("POST", { title: "Nullable", body: null, milestone: null }));
    expect(nullable.status).toBe(201);
  });

  it("requires a required body", async () => {
    const response = await fetch(issues(), { method: "POST", headers: { "content-type": "application/json" } });
    expect(response.status).toBe(400);
    expect((await response.json()).problems).toEqual([{ in: "body", message: "a request body is required" }]);
  });

  it("refuses a body that is not JSON", async () => {
    const response = await fetch(issues(), { method: "POST", headers: { "content-type": "application/json" }, body: "{title:" });
    expect(response.status).toBe(400);
    const [problem] = (await response.json()).problems;
    expect(problem.in).toBe("body");
    expect(problem.message).toMatch(/^is not valid JSON: /);
  });

  it("answers 415 to a body sent as a media type the operation does not take", async () => {
    const form = await fetch(issues(), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "title=Bug" });
    expect(form.status).toBe(415);
    expect(await form.json()).toMatchObject({ error: "unsupported_media_type", supported: ["application/json"] });
    const text = await fetch(issues(), { method: "POST", body: "Bug" });
    expect(text.status).toBe(415);
  });

  it("reads JSON sent with no Content-Type, and fills top-level body defaults", async () => {
    const response = await fetch(issues(), { method: "POST", body: new TextEncoder().encode(JSON.stringify({ title: "No media type" })) });
    expect(response.status).toBe(201);
    expect(github.outcomes.at(-1)!.request.body).toEqual({ title: "No media type", assignees: [] });
  });

  it("takes a declared text body as text", async () => {
    const response = await fetch(`${graph.baseUrl}/me/drive/root:/notes/new.txt:/content`, {
      method: "PUT",
      headers: { "content-type": "text/plain" },
      body: "hello",
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ name: "new.txt", size: 5 });
    expect(graph.store.states.graph.files).toMatchObject({ "notes/new.txt": "hello" });
    const wrong = await fetch(`${graph.baseUrl}/me/drive/root:/notes/new.txt:/content`, json("PUT", { text: "hello" }));
    expect(wrong.status).toBe(415);
  });
});
