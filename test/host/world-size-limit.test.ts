import { afterEach, describe, expect, it } from "vitest";
import evalCommand from "../../cli/eval.js";
import serveCommand from "../../cli/serve.js";
import { sidecarOptions } from "../../engine/serve/host/sidecar.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import type { Services } from "../../engine/serve/host/start-services.js";
import { jsonBytes } from "../../engine/serve/runtime/json-bytes.js";
import { StateStore } from "../../engine/serve/runtime/state-store.js";
import { GITHUB } from "../api/serve-api.js";
import { ROOT } from "../support/examples.js";
import { runInProcess } from "../support/run-command.js";
import { connect, serve, textOf } from "../support/services.js";

const CRM_EVALS = `${ROOT}examples/crm/evals.yaml`;

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
/** The world's size as the limit counts it: every entity's value as JSON. */
const worldBytes = (states: Record<string, Record<string, unknown>>) =>
  Object.values(states).reduce((n, state) => n + Object.values(state).reduce((m: number, v) => m + bytesOf(v), 0), 0);

describe("a byte limit per world", () => {
  let services: Services;
  afterEach(() => services?.close());

  it("refuses a tool call that would grow the world past maxWorldBytes with a tool error, committing nothing; smaller writes still pass", async () => {
    const start = await serve(undefined, { warn: () => {} });
    const initial = worldBytes(start.states);
    await start.close();
    services = await serve(undefined, { warn: () => {}, maxWorldBytes: initial + 200 });
    const client = await connect(services.url("notes"));
    const big = await client.callTool({ name: "create-note", arguments: { title: "x".repeat(300) } });
    expect(big.isError).toBe(true);
    expect(textOf(big)).toMatch(
      /notes\/create-note would grow this world to \d+ bytes, past its limit of \d+ \(maxWorldBytes, EVAL_SIMULATE_MAX_WORLD_BYTES\); nothing was changed/,
    );
    expect(services.states.notes.notes).toHaveLength(3);
    expect(services.calls("notes").at(-1)).toMatchObject({ status: "tool_error", committed: false });
    const small = await client.callTool({ name: "create-note", arguments: { title: "fits" } });
    expect(small.isError).toBeFalsy();
    expect(services.states.notes.notes).toHaveLength(4);
    await client.close();
  });

  it("holds each session to the limit on its own, and lets a world over it change without growing", async () => {
    services = await serve(undefined, { warn: () => {}, maxWorldBytes: 10 });
    const session = await services.createSession({});
    const client = await connect(session.url("notes"));
    expect((await client.callTool({ name: "create-note", arguments: { title: "more" } })).isError).toBe(true);
    expect(session.states.notes.notes).toHaveLength(3);
    // The counter's 0 becomes 1: the world is past its limit already, but no larger.
    expect((await client.callTool({ name: "bump-jsonata", arguments: {} })).isError).toBeFalsy();
    expect(session.states.notes.counter).toBe(1);
    await client.close();
  });

  it("answers an API fake's write past the limit with 507 world_too_large and changes nothing", async () => {
    services = await serve(GITHUB, { warn: () => {}, maxWorldBytes: 1 });
    const before = services.states.github.issues;
    const response = await fetch(`${services.baseUrl("github")}/repos/octo/hello/issues`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "New bug" }),
    });
    expect(response.status).toBe(507);
    expect(await response.json()).toMatchObject({ error: "world_too_large", message: expect.stringContaining("past its limit of 1") });
    expect(services.states.github.issues).toBe(before);
  });

  it("takes the limit from EVAL_SIMULATE_MAX_WORLD_BYTES, refusing what is not a positive integer", () => {
    expect(sidecarOptions({ EVAL_SIMULATE_MAX_WORLD_BYTES: "1048576" }).maxWorldBytes).toBe(1_048_576);
    expect(sidecarOptions({}).maxWorldBytes).toBeUndefined();
    expect(() => sidecarOptions({ EVAL_SIMULATE_MAX_WORLD_BYTES: "lots" })).toThrow(/EVAL_SIMULATE_MAX_WORLD_BYTES/);
  });

  it("holds each eval trial's world to the limit from the option, the environment or --max-world-bytes", async () => {
    const writes = ["log-globex-call-note"];
    const byOption = await runEvals({ evals: CRM_EVALS, dry: true, cases: writes, maxWorldBytes: 1 });
    expect(byOption.lines[0].status).toBe("fail");
    expect(JSON.stringify(byOption.lines[0].session?.record)).toContain("past its limit of 1 (maxWorldBytes");
    const byEnv = await runEvals({ evals: CRM_EVALS, dry: true, cases: writes, env: { EVAL_SIMULATE_MAX_WORLD_BYTES: "1" } });
    expect(byEnv.lines[0].status).toBe("fail");
    expect((await runEvals({ evals: CRM_EVALS, dry: true, cases: writes })).lines[0].status).toBe("pass");
    expect((await runInProcess(evalCommand, [CRM_EVALS, "--dry", "--case", writes[0], "--max-world-bytes", "1"])).code).toBe(1);
    expect(await runInProcess(evalCommand, [CRM_EVALS, "--dry", "--max-world-bytes", "lots"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--max-world-bytes"),
    });
    expect(await runInProcess(serveCommand, ["--max-world-bytes", "0"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--max-world-bytes takes a positive integer"),
    });
  }, 60_000);
});

describe("a world's size, counted per commit", () => {
  it("counts a value's bytes as JSON writes them", () => {
    for (const value of [
      null,
      true,
      false,
      0,
      -0,
      1.5e-7,
      12345678901234567890,
      "",
      "plain",
      'quote " and \\ back',
      "tab\t new\n ctl\u0001",
      "é中😀",
      "\ud800 lone",
      [],
      [1, [2, { a: null }]],
      { k: "v", nested: { list: [1, "two", false] } },
      { 'ké"y': 1 },
    ]) {
      expect(jsonBytes(value), JSON.stringify(value)).toBe(bytesOf(value));
    }
    const frozen = Object.freeze({ text: "y".repeat(1000), list: Object.freeze([1, 2, 3]) });
    expect(jsonBytes(frozen)).toBe(bytesOf(frozen));
    expect(jsonBytes({ reused: frozen, again: frozen })).toBe(bytesOf({ reused: frozen, again: frozen }));
  });

  it("keeps the world's size as each commit replaces, adds and removes entities", () => {
    const store = new StateStore({ a: { list: [1, 2, 3], text: "hello" }, b: { n: 7 } }, undefined, false, { maxBytes: 1_000 });
    expect(store.size).toBe(worldBytes(store.states));
    const grow = { list: [1, 2, 3, 4, { id: "é" }] };
    expect(store.overLimit("a", grow)).toBeUndefined();
    store.commit("a", grow);
    expect(store.size).toBe(worldBytes(store.states));
    store.commit("b", { m: "new", n: undefined });
    expect(store.size).toBe(worldBytes(store.states));
    const tooBig = { text: "z".repeat(2_000) };
    expect(store.overLimit("a", tooBig)).toEqual({ bytes: worldBytes(store.states) - bytesOf("hello") + bytesOf(tooBig.text), limit: 1_000 });
    expect(store.size).toBe(worldBytes(store.states));
  });
});
