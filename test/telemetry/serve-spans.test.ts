import { afterEach, describe, expect, it } from "vitest";
import { startServe } from "../support/cli-process.js";
import { type OtlpReceiver, startOtlpReceiver } from "../support/otlp-receiver.js";
import { SERVE_FIXTURE } from "../support/services.js";

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const call = (port: number, title: string) =>
  fetch(`http://127.0.0.1:${port}/notes/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create-note", arguments: { title } } }),
  }).then((r) => r.text());

describe("serve's spans", () => {
  it("sends the spans still batched when it is stopped (SIGTERM), under its service name", async () => {
    receiver = await startOtlpReceiver();
    // A batch that would wait a minute: only the flush on SIGTERM can send it.
    const serve = await startServe([SERVE_FIXTURE], { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: "60000" });
    await call(serve.port, "Kickoff");
    expect(receiver.spans).toEqual([]);
    serve.child.kill("SIGTERM");
    expect(await serve.exited).toBe(0);
    expect(receiver.spans.find((s) => s.name === "tools/call create-note")).toMatchObject({ service: "eval-simulate-serve" });
  }, 60_000);

  it("stops cleanly on SIGTERM when its collector never answers", async () => {
    receiver = await startOtlpReceiver({ blackhole: true });
    const serve = await startServe([SERVE_FIXTURE], { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: "120000" });
    expect(await call(serve.port, "Kickoff")).toContain("Note created!");
    serve.child.kill("SIGTERM");
    expect(await serve.exited).toBe(0);
  }, 60_000);
});
