import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GITHUB, GRAPH, json, replaceHandler, serveApi, type ServedApi } from "./serve-api.js";

type Issue = { number: number; locked: boolean };

describe("API requests are transactional", () => {
  let github: ServedApi;
  beforeEach(async () => {
    github = await serveApi(GITHUB, "github");
  });
  afterEach(() => github.close());

  const issues = () => `${github.url}/repos/octo/hello/issues`;
  const comments = (n: number) => `${github.url}/repos/octo/hello/issues/${n}/comments`;

  it("commits a handler's changes, visible in the store and to the next request", async () => {
    const created = await fetch(issues(), json("POST", { title: "New bug", labels: ["bug"] }));
    expect(created.status).toBe(201);
    const issue = await created.json();
    expect(issue).toMatchObject({ number: 6, title: "New bug", labels: [{ name: "bug" }], state: "open" });
    expect(github.store.states.github.issues).toHaveLength(7);
    expect(Object.isFrozen(github.store.states.github.issues)).toBe(true);
    expect(github.outcomes.at(-1)).toMatchObject({ committed: true, operation: "POST /repos/{owner}/{repo}/issues", operationName: "issues/create" });
    expect((await (await fetch(`${issues()}/6`)).json()).title).toBe("New bug");
  });

  it("answers fail(message) with 422 and changes nothing", async () => {
    const before = github.store.states.github;
    const response = await fetch(issues(), json("POST", { title: "forbidden" }));
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: "refused", message: "Issue titles may not be 'forbidden'" });
    expect(github.store.states.github).toEqual(before);
  });

  it("answers a handler that throws halfway with 500 and changes nothing", async () => {
    const before = github.store.states.github.comments;
    const response = await fetch(comments(1), json("POST", { body: "throw" }));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "handler_error", message: "the comment store broke halfway" });
    expect(github.store.states.github.comments).toBe(before);
  });

  it("changes nothing when the answer breaks the document: an undeclared status or a body outside the schema", async () => {
    const before = github.store.states.github.comments;
    expect((await fetch(comments(1), json("POST", { body: "teapot" }))).status).toBe(500);
    expect((await fetch(comments(1), json("POST", { body: "half" }))).status).toBe(500);
    expect(github.store.states.github.comments).toBe(before);
    expect(github.outcomes.slice(-2).map((o) => [o.response.status, o.committed, (o.response.body as { error: string }).error])).toEqual([
      [500, false, "response_not_in_document"],
      [500, false, "response_schema"],
    ]);
    expect((await fetch(comments(1), json("POST", { body: "fine" }))).status).toBe(201);
    expect(github.store.states.github.comments).toHaveLength(3);
  });

  it("refuses a change to an entity the operation does not declare in writes", async () => {
    const before = github.store.states.github;
    const response = await fetch(comments(1), json("POST", { body: "sneaky" }));
    expect(response.status).toBe(500);
    expect((await response.json()).message).toContain("changed state its operation does not declare in writes (comments)");
    expect(github.store.states.github).toEqual(before);
  });

  it("refuses a change that would leave an entity outside its schema", async () => {
    replaceHandler(github, "issues/create", (_request, { state }) => {
      state.issues.push({ id: 1, number: 0, title: "" });
      return { status: 422, body: { message: "refused, but the state changed anyway" } };
    });
    const response = await fetch(issues(), json("POST", { title: "Bad state" }));
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body.error).toBe("state_schema");
    expect(body.message).toContain("github/issues/create would leave issues outside its schema");
    expect(github.store.states.github.issues).toHaveLength(6);
  });

  it("turns a handler past its time limit into 504, discards its change, and serves the next request", async () => {
    const response = await fetch(`${issues()}/3/lock`, json("PUT", { lock_reason: "spam" }));
    expect(response.status).toBe(504);
    const body = await response.json();
    expect(body.error).toBe("handler_timeout");
    expect(body.message).toContain("ran past its 300 ms limit");
    expect((github.store.states.github.issues as Issue[]).find((i) => i.number === 3)?.locked).toBe(false);
    expect((await fetch(`${issues()}/3/lock`, json("PUT", { lock_reason: "resolved" }))).status).toBe(204);
    expect((github.store.states.github.issues as Issue[]).find((i) => i.number === 3)?.locked).toBe(true);
    expect(github.outcomes.at(-1)?.logs).toEqual([{ locked: 3, reason: "resolved" }]);
  });

  it("lands all of 30 concurrent writes", async () => {
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => fetch(issues(), json("POST", { title: `Issue ${i}` }))));
    expect(responses.every((r) => r.status === 201)).toBe(true);
    const numbers = (await Promise.all(responses.map((r) => r.json()))).map((issue) => issue.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => i + 6));
    expect(github.store.states.github.issues).toHaveLength(36);
  });

  it("records each request's outcome for the journal", async () => {
    await fetch(issues(), json("POST", { title: "Journaled" }, { authorization: "token secret" }));
    const outcome = github.outcomes.at(-1)!;
    expect(outcome).toMatchObject({
      api: "github",
      operation: "POST /repos/{owner}/{repo}/issues",
      operationName: "issues/create",
      matched: true,
      request: { method: "POST", path: "/repos/octo/hello/issues", params: { owner: "octo", repo: "hello" }, body: { title: "Journaled", assignees: [] } },
      response: { status: 201, headers: { "content-type": "application/json" } },
      committed: true,
      logs: [],
    });
    expect(outcome.request.headers.authorization).toBe("token secret");
    expect(outcome.response.headers.location).toBe(`${github.url}/repos/octo/hello/issues/6`);
    expect(Date.parse(outcome.startedAt)).not.toBeNaN();
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    expect(outcome.error).toBeUndefined();
  });
});

describe("JSONata API handlers", () => {
  let graph: ServedApi;
  beforeEach(async () => {
    graph = await serveApi(GRAPH, "graph");
  });
  afterEach(() => graph.close());

  it("commits a block's set and answers its return", async () => {
    replaceHandler(graph, "me.message.send", {
      fail: [{ if: "$not($request.params.`message-id` in $state.messages.id)", message: '"No such draft: " & $request.params.`message-id`' }],
      set: { messages: '$state.messages.(id = $request.params.`message-id` ? $merge([$, { "isDraft": false }]) : $)' },
      return: '{ "status": 202 }',
    });
    const response = await fetch(`${graph.baseUrl}/me/messages/m-04/send`, { method: "POST" });
    expect(response.status).toBe(202);
    expect((graph.store.states.graph.messages as Array<{ id: string; isDraft: boolean }>).find((m) => m.id === "m-04")?.isDraft).toBe(false);
    expect(graph.outcomes.at(-1)?.committed).toBe(true);
    const before = graph.store.states.graph;
    const refused = await fetch(`${graph.baseUrl}/me/messages/m-99/send`, { method: "POST" });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ error: "refused", message: "No such draft: m-99" });
    expect(graph.store.states.graph).toEqual(before);
  });

  it("answers $notImplemented with 501, a malformed answer with 500, and a runaway expression with 504", async () => {
    replaceHandler(graph, "me.ListMessages", '$notImplemented("paging backwards")');
    const unimplemented = await fetch(`${graph.baseUrl}/me/messages`);
    expect(unimplemented.status).toBe(501);
    expect(await unimplemented.json()).toEqual({ error: "not_implemented", message: "This fake does not implement paging backwards" });
    replaceHandler(graph, "me.ListMessages", '{ "value": $state.messages }');
    const malformed = await fetch(`${graph.baseUrl}/me/messages`);
    expect(malformed.status).toBe(500);
    expect((await malformed.json()).error).toBe("handler_response");
    replaceHandler(graph, "me.ListMessages", "($f := function($n) { $f($n + 1) }; $f(0))");
    const runaway = await fetch(`${graph.baseUrl}/me/messages`);
    expect(runaway.status).toBe(504);
    expect((await runaway.json()).error).toBe("handler_timeout");
    expect((await fetch(`${graph.baseUrl}/me/messages/m-01`)).status).toBe(200);
  });
});
