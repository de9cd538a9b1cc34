import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GITHUB, GRAPH, json, replaceHandler, serveApi, type ServedApi } from "./serve-api.js";

const ISSUE_SCHEMA = "#/paths/~1repos~1{owner}~1{repo}~1issues~1{issue_number}/get/responses/200/content/application~1json/schema";

describe("checking API answers against the document", () => {
  let github: ServedApi;
  let graph: ServedApi;
  beforeAll(async () => {
    [github, graph] = await Promise.all([serveApi(GITHUB, "github"), serveApi(GRAPH, "graph")]);
  });
  afterAll(() => Promise.all([github.close(), graph.close()]));

  it("refuses an answer whose status the document does not declare, with 500", async () => {
    const response = await fetch(`${github.url}/repos/octo/hello/issues/418`);
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body.error).toBe("response_not_in_document");
    expect(body.message).toContain("answered status 418, which is not declared for GET /repos/{owner}/{repo}/issues/{issue_number}; declared: 200, 404");
    expect(github.outcomes.at(-1)).toMatchObject({ matched: true, committed: false, response: { status: 500 }, error: body.message });
  });

  it("refuses a body outside the response schema, naming the schema by its place in the document", async () => {
    const response = await fetch(`${github.url}/repos/octo/hello/issues/999`);
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body).toMatchObject({ error: "response_schema", schema: ISSUE_SCHEMA });
    expect(body.message).toContain(`is outside ${ISSUE_SCHEMA}`);
    expect(body.problems).toContainEqual({ path: "/number", message: "must be integer" });
    expect(body.problems).toContainEqual({ message: "must have required property 'title'" });
  });

  it("checks a response declared by reference (components/responses) against its schema", async () => {
    const response = await fetch(`${github.url}/repos/octo/hello/issues/77`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "Not Found", documentation_url: "https://docs.github.com/rest" });
  });

  it("finds a status's response by its range (4XX) and by default", async () => {
    const spam = await fetch(`${github.url}/repos/octo/hello/issues`, json("POST", { title: "spam" }));
    expect(spam.status).toBe(422);
    expect((await spam.json()).message).toBe("Validation Failed");
    const missing = await fetch(`${graph.baseUrl}/me/messages/nope`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("ErrorItemNotFound");
  });

  it("names a problem deep inside a body (OpenAPI 3.1, through a $ref)", async () => {
    replaceHandler(graph, "me.drive.root.ListChildren", '{ "status": 200, "body": { "value": [{ "name": 7 }] } }');
    const response = await fetch(`${graph.baseUrl}/me/drive/root/children`);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      error: "response_schema",
      schema: "#/paths/~1me~1drive~1root~1children/get/responses/200/content/application~1json/schema",
      problems: [{ path: "/value/0/name", message: "must be string" }],
    });
  });

  it("refuses a body on a response the document declares without content", async () => {
    replaceHandler(graph, "me.message.send", () => ({ status: 202, body: { sent: true } }));
    const response = await fetch(`${graph.baseUrl}/me/messages/m-04/send`, { method: "POST" });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      error: "response_schema",
      schema: "#/paths/~1me~1messages~1{message-id}~1send/post/responses/202",
      problems: [{ message: "must have no body" }],
    });
  });

  it("refuses a media type the response does not declare", async () => {
    replaceHandler(graph, "me.GetMessages", () => ({ status: 200, body: "hi", headers: { "Content-Type": "text/html" } }));
    const response = await fetch(`${graph.baseUrl}/me/messages/m-01`);
    expect(response.status).toBe(500);
    expect((await response.json()).message).toContain(
      "answered 200 as text/html, which #/paths/~1me~1messages~1{message-id}/get/responses/200 (GET /me/messages/{message-id}) does not declare; declared: application/json",
    );
  });

  it("sends 204 without a body or a content type", async () => {
    const response = await fetch(`${github.url}/repos/octo/hello/issues/2/lock`, { method: "PUT" });
    expect(response.status).toBe(204);
    expect(response.headers.get("content-type")).toBeNull();
    expect(await response.text()).toBe("");
  });

  it("rewrites links to the client's base: the Link header, URLs in the body, and Location", async () => {
    const list = await fetch(`${github.url}/repos/octo/hello/issues?per_page=2`);
    const next = `${github.url}/repos/octo/hello/issues?state=open&per_page=2&page=2`;
    expect(list.headers.get("link")).toBe(`<${next}>; rel="next", <${next}>; rel="last"`);
    expect((await list.json())[0].url).toBe(`${github.url}/repos/octo/hello/issues/1`);
    const page2 = await fetch(next);
    expect((await page2.json()).map((i: { number: number }) => i.number)).toEqual([4, 5]);
    const created = await fetch(`${github.url}/repos/octo/hello/issues`, json("POST", { title: "Linked" }));
    const issue = await created.json();
    expect(created.headers.get("location")).toBe(`${github.url}/repos/octo/hello/issues/${issue.number}`);
    expect(issue.url).toBe(created.headers.get("location"));
  });

  it("rewrites @odata.nextLink so a client can follow it to the next page", async () => {
    const seen: string[] = [];
    let url: string | null = `${graph.baseUrl}/me/messages?$top=2`;
    while (url) {
      const page: { value: Array<{ id: string }>; "@odata.nextLink": string | null } = await (await fetch(url)).json();
      seen.push(...page.value.map((m) => m.id));
      url = page["@odata.nextLink"];
      if (url) expect(url.startsWith(`${graph.baseUrl}/me/messages?`)).toBe(true);
    }
    expect(seen).toEqual(["m-01", "m-02", "m-03", "m-04", "m-05"]);
  });

  it("gives handlers the base URL the client used as request.baseUrl", async () => {
    replaceHandler(graph, "me.drive.root.ListChildren", '{ "status": 200, "body": { "value": [{ "name": $request.baseUrl }] } }');
    const byPath = await (await fetch(`${graph.baseUrl}/me/drive/root/children`)).json();
    expect(byPath.value[0].name).toBe(graph.baseUrl);
    const byHost = await (await graph.fetch(new Request("https://graph.microsoft.com/v1.0/me/drive/root/children"))).json();
    expect(byHost.value[0].name).toBe("https://graph.microsoft.com/v1.0");
  });
});
