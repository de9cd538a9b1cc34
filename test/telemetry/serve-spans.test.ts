import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, startServe } from "../support/cli-process.js";
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

  it("sends the spans still batched when serve --stdio ends with its stdin", async () => {
    receiver = await startOtlpReceiver();
    const child = spawn(process.execPath, [CLI, "serve", SERVE_FIXTURE, "--stdio", "notes"], {
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: "60000" },
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const answered = (id: number) =>
      new Promise<void>((resolve) => {
        const check = () => stdout.split("\n").some((line) => line.includes(`"id":${id}`)) && resolve();
        child.stdout.on("data", (d) => {
          stdout += d;
          check();
        });
      });
    const initialized = answered(1);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    await initialized;
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const called = answered(2);
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "create-note", arguments: { title: "Over stdio" } } });
    await called;
    // A batch that would wait a minute: only the flush at the end can send it.
    expect(receiver.spans).toEqual([]);
    child.stdin.end();
    expect(await exited, stderr).toBe(0);
    expect(receiver.spans.find((s) => s.name === "tools/call create-note")).toMatchObject({ service: "eval-simulate-serve" });
  }, 60_000);
});
