import { afterEach, describe, expect, it } from "vitest";
import { startTracing, stopTracing } from "../../engine/serve/telemetry/index.js";
import type { Services } from "../../engine/serve/host/index.js";
import { exampleManifest } from "../support/examples.js";
import { KIND, type OtlpReceiver, startOtlpReceiver } from "../support/otlp-receiver.js";
import { serve } from "../support/services.js";

const CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN = "00f067aa0ba902b7";

let receiver: OtlpReceiver | undefined;
let services: Services | undefined;

afterEach(async () => {
  await stopTracing();
  await services?.close();
  await receiver?.close();
  services = receiver = undefined;
});

async function traced(protocol: "http/protobuf" | "http/json", manifest?: string): Promise<{ receiver: OtlpReceiver; services: Services }> {
  receiver = await startOtlpReceiver();
  const started = await startTracing(
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol, OTEL_SERVICE_NAME: "fakes-under-test" },
    "eval-simulate",
  );
  expect(started).toEqual({ on: true });
  services = await serve(manifest);
  return { receiver, services };
}

/** A tools/call sent as a client would, the trace context in `params._meta`. */
async function toolsCall(url: string, name: string, args: Record<string, unknown>, id = 7): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args, _meta: { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` } },
    }),
  });
  const text = await response.text();
  return JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text);
}

describe("the fakes' spans over OTLP", () => {
  it("sends a server span per tools/call, parented on the traceparent in params._meta (protobuf)", async () => {
    const { receiver, services } = await traced("http/protobuf");
    const url = services.mcpServers().find((s) => s.id === "notes")!.url;
    await toolsCall(url, "create-note", { title: "Kickoff" });
    await stopTracing();
    const span = await receiver.waitFor((s) => s.name === "tools/call create-note");
    expect(receiver.contentTypes[0]).toBe("application/x-protobuf");
    expect(span).toMatchObject({
      traceId: CLIENT_TRACE,
      parentSpanId: CLIENT_SPAN,
      kind: KIND.server,
      service: "fakes-under-test",
      status: { code: 0 },
    });
    expect(span.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "create-note",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": "7",
      "eval_simulate.fake.id": "notes",
      "eval_simulate.wrote": true,
      "eval_simulate.commit.seq": 1,
    });
  });

  it("marks a tool error and a JSON-RPC error on their spans (JSON)", async () => {
    const { receiver, services } = await traced("http/json");
    const url = services.mcpServers().find((s) => s.id === "notes")!.url;
    const refused = (await toolsCall(url, "create-note", { title: "forbidden" }, 8)) as { result?: { isError?: boolean } };
    expect(refused.result?.isError).toBe(true);
    const unknown = (await toolsCall(url, "no-such-tool", {}, 9)) as { error?: { code: number } };
    expect(unknown.error?.code).toBe(-32602);
    await stopTracing();
    const toolError = await receiver.waitFor((s) => s.attributes["jsonrpc.request.id"] === "8");
    const protocolError = await receiver.waitFor((s) => s.attributes["jsonrpc.request.id"] === "9");
    expect(receiver.contentTypes[0]).toBe("application/json");
    expect(toolError).toMatchObject({ name: "tools/call create-note", parentSpanId: CLIENT_SPAN, status: { code: 2 } });
    expect(toolError.attributes).toMatchObject({ "error.type": "tool_error", "eval_simulate.wrote": false });
    expect(toolError.attributes["eval_simulate.commit.seq"]).toBeUndefined();
    expect(protocolError).toMatchObject({
      name: "tools/call no-such-tool",
      traceId: CLIENT_TRACE,
      status: { code: 2, message: "Tool no-such-tool not found" },
    });
    expect(protocolError.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
  });

  it("cuts what a client names a span by and puts in its attributes, whatever its length", async () => {
    const { receiver, services } = await traced("http/json");
    const url = services.mcpServers().find((s) => s.id === "notes")!.url;
    const long = "x".repeat(100_000);
    await toolsCall(url, long, {}, 10);
    await stopTracing();
    const span = await receiver.waitFor((s) => s.attributes["jsonrpc.request.id"] === "10");
    expect(span.name.length).toBeLessThan(300);
    expect(String(span.attributes["gen_ai.tool.name"]).length).toBe(1024);
  });

  it("names the session a call was served in, not its secret", async () => {
    const { receiver, services } = await traced("http/protobuf");
    const session = await services.createSession({ secret: true });
    const url = session.mcpServers().find((s) => s.id === "notes")!.url;
    await toolsCall(url, "list-notes", { limit: 5 });
    await session.close();
    await stopTracing();
    const span = await receiver.waitFor((s) => s.name === "tools/call list-notes");
    expect(span.attributes).toMatchObject({ "eval_simulate.session.id": session.id, "mcp.session.id": session.id, "eval_simulate.wrote": false });
    expect(JSON.stringify(span.attributes)).not.toContain("~");
  });

  it("sends an HTTP server span per API fake request, parented on its traceparent header", async () => {
    const { receiver, services } = await traced("http/protobuf", exampleManifest("github"));
    const parent = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;
    const created = await fetch(`${services.baseUrl("github")}/repos/acme/widgets/issues`, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: parent },
      body: JSON.stringify({ title: "Crash on start" }),
    });
    expect(created.status).toBe(201);
    const missing = await fetch(`${services.baseUrl("github")}/repos/acme/widgets/issues/999`, { headers: { traceparent: parent } });
    expect(missing.status).toBe(404);
    const post = await receiver.waitFor((s) => s.attributes["http.request.method"] === "POST");
    expect(post).toMatchObject({
      name: "POST /repos/{owner}/{repo}/issues",
      kind: KIND.server,
      traceId: CLIENT_TRACE,
      parentSpanId: CLIENT_SPAN,
      status: { code: 0 },
    });
    expect(post.attributes).toMatchObject({
      "http.route": "/repos/{owner}/{repo}/issues",
      "http.response.status_code": 201,
      "url.path": "/github/repos/acme/widgets/issues",
      "eval_simulate.fake.id": "github",
      "eval_simulate.wrote": true,
      "eval_simulate.commit.seq": 1,
    });
    const session = await services.createSession({ secret: true });
    expect((await fetch(`${session.baseUrl("github")}/repos/acme/widgets/issues`, { method: "PUT" })).status).toBe(405);
    await session.close();
    await stopTracing();
    const put = await receiver.waitFor((s) => s.attributes["http.request.method"] === "PUT");
    expect(put.attributes).toMatchObject({ "url.path": `/s/${session.id}/github/repos/acme/widgets/issues`, "eval_simulate.session.id": session.id });
    const get = await receiver.waitFor((s) => s.attributes["http.request.method"] === "GET");
    // A 4xx is the client's error: a server span is not failed by it.
    expect(get).toMatchObject({ name: "GET /repos/{owner}/{repo}/issues/{issue_number}", status: { code: 0 } });
    expect(get.attributes["http.response.status_code"]).toBe(404);
  });

  it("sends nothing when no OTLP endpoint is set", async () => {
    receiver = await startOtlpReceiver();
    expect(await startTracing({ OTEL_SERVICE_NAME: "fakes-under-test" })).toEqual({ on: false });
    services = await serve();
    await toolsCall(services.mcpServers().find((s) => s.id === "notes")!.url, "create-note", { title: "Quiet" });
    await stopTracing();
    expect(receiver.contentTypes).toEqual([]);
  });
});
