import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServeProcess, startServe } from "../support/cli-process.js";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { startServices } from "../../engine/serve/host/start-services.js";
import { HOSTILE, rawToolsCall } from "../support/raw-mcp.js";
import { connect, textOf } from "../support/services.js";

const temp = () => mkdtempSync(join(tmpdir(), "eval-simulate-values-"));

interface CallEntry {
  name: string;
  status: string | number;
  committed: boolean;
  error?: string;
}

describe("results and numbers a fake cannot carry, through a real serve process", () => {
  let serve: ServeProcess;
  let origin: string;
  const record = join(temp(), "calls.jsonl");
  const stateFile = join(temp(), "state.json");
  const state = async (fake: string) => (await fetch(`${origin}/${fake}/admin/state`)).json();
  const calls = async (fake: string): Promise<CallEntry[]> => ((await (await fetch(`${origin}/${fake}/admin/calls`)).json()) as { calls: CallEntry[] }).calls;

  beforeAll(async () => {
    serve = await startServe([HOSTILE, "--clock", "2026-10-01T09:00:00Z", "--record", record, "--state-file", stateFile]);
    origin = `http://127.0.0.1:${serve.port}`;
  });
  afterAll(async () => {
    serve.child.kill("SIGTERM");
    await serve.exited;
  });

  const MALFORMED: Array<[string, string]> = [
    ["image-without-data", 'content[0] (image) needs "data"'],
    ["image-bad-base64", 'content[0] (image) "data" must be base64 text'],
    ["text-not-text", 'content[0] (text) "text" must be text, not number 42'],
    ["unknown-kind", 'content[0] has type "video"; a content block is one of text, image, audio, resource_link, resource'],
    ["resource-without-uri", 'content[0] (resource) resource needs "uri"'],
    ["link-without-name", 'content[0] (resource_link) needs "name"'],
    ["structured-array", '"structuredContent" must be an object, not an array'],
    ["structured-infinity", "structuredContent.count must be a finite number, not Infinity"],
    ["is-error-text", '"isError" must be true or false, not the text "yes"'],
    ["meta-array", '"_meta" must be an object, not an array'],
    ["bad-priority", "content[0] (text) annotations.priority must be a number from 0 to 1, not number 7"],
  ];

  it.each(MALFORMED)(
    "answers a handler's malformed result (%s) with a short tool error, committing nothing and journaling a tool_error",
    async (kind, problem) => {
      const client = await connect(`${origin}/vault/mcp`);
      const before = await calls("vault");
      const result = await client.callTool({ name: "malformed", arguments: { kind } });
      await client.close();
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(`[eval-simulate] the handler of vault/malformed answered a malformed result: ${problem}; nothing was changed`);
      expect(textOf(result).length).toBeLessThan(300);
      expect((await state("vault")).counter).toBe(0);
      const after = await calls("vault");
      expect(after).toHaveLength(before.length + 1);
      expect(after.at(-1)).toMatchObject({ name: "malformed", status: "tool_error", committed: false, error: textOf(result) });
      expect(JSON.parse(readFileSync(stateFile, "utf8")).vault.counter).toBe(0);
    },
  );

  it("commits a well-formed result of the same handler, so the refusals above are about the result alone", async () => {
    const client = await connect(`${origin}/vault/mcp`);
    const result = await client.callTool({ name: "malformed", arguments: { kind: "none" } });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("fine");
    expect((await state("vault")).counter).toBe(1);
  });

  it("refuses 1e309 in tool arguments with the SDK's invalid-arguments wording, changing nothing", async () => {
    const before = await state("vault");
    for (const value of ["1e309", "-1e309", "[1, 2, 1e400]", '{"deep": {"er": 1e999}}']) {
      const { status, result } = await rawToolsCall(origin, "vault", "store", `{"value":${value}}`);
      expect(status).toBe(200);
      expect(result?.isError).toBe(true);
      expect(result?.content[0].text).toMatch(
        /^Input validation error: Invalid arguments for tool store: data\/value\S* must be a finite number, not -?Infinity$/,
      );
    }
    const { result } = await rawToolsCall(origin, "vault", "divide", '{"a":1e309,"b":1}');
    expect(result?.content[0].text).toBe("Input validation error: Invalid arguments for tool divide: data/a must be a finite number, not Infinity");
    expect(await state("vault")).toEqual(before);
    expect((await calls("vault")).slice(-5).every((call) => call.status === "tool_error" && !call.committed)).toBe(true);
  });

  it("refuses a handler's non-finite state change or answer before anything commits", async () => {
    const before = await state("vault");
    const client = await connect(`${origin}/vault/mcp`);
    const infinite = await client.callTool({ name: "infinite", arguments: {} });
    expect(textOf(infinite)).toBe(
      "[eval-simulate] vault/infinite would leave counter holding what JSON cannot carry: counter must be a finite number, not Infinity; nothing was changed",
    );
    const nan = await client.callTool({ name: "infinite", arguments: { nan: true } });
    expect(textOf(nan)).toContain("counter must be a finite number, not NaN");
    const divided = await client.callTool({ name: "divide", arguments: { a: 1, b: 0 } });
    expect(divided.isError).toBe(true);
    expect(textOf(divided)).toContain("Infinity");
    const answered = await client.callTool({ name: "answer-infinity", arguments: {} });
    expect(textOf(answered)).toBe(
      "[eval-simulate] the handler of vault/answer-infinity answered a value JSON cannot carry: answer/value must be a finite number, not Infinity; nothing was changed",
    );
    await client.close();
    expect(await state("vault")).toEqual(before);
  });

  it("answers 400 naming the parameter for 1e309 in an API body, query, header or path, changing nothing", async () => {
    const base = `${origin}/ledger`;
    const body = await fetch(`${base}/entries`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"amount":1e309}' });
    expect(body.status).toBe(400);
    expect(await body.json()).toMatchObject({
      error: "bad_request",
      problems: [{ in: "body", path: "/amount", message: "must be a finite number, not Infinity" }],
    });
    const query = await fetch(`${base}/entries?page=1e400`);
    expect(query.status).toBe(400);
    expect(await query.json()).toMatchObject({ problems: [{ in: "query", name: "page", message: "must be a finite number, not Infinity" }] });
    const header = await fetch(`${base}/entries`, { headers: { "x-limit": "-1e999" } });
    expect(header.status).toBe(400);
    expect(await header.json()).toMatchObject({ problems: [{ in: "header", name: "x-limit", message: "must be a finite number, not -Infinity" }] });
    const path = await fetch(`${base}/entries/1e999`);
    expect(path.status).toBe(400);
    expect(await path.json()).toMatchObject({ problems: [{ in: "path", name: "amount" }] });
    const fine = await fetch(`${base}/entries?page=2`, { headers: { "x-limit": "1e3" } });
    expect(await fine.json()).toEqual({ page: 2, limit: "1e3", entries: [{ amount: 5 }] });
    expect(await state("ledger")).toEqual({ entries: [{ amount: 5 }] });
  });

  it("answers 500 for an API handler's non-finite state change or body, changing nothing", async () => {
    const base = `${origin}/ledger`;
    const stored = await fetch(`${base}/broken/state`, { method: "POST" });
    expect(stored.status).toBe(500);
    expect(await stored.json()).toMatchObject({
      error: "state_schema",
      message: expect.stringContaining("entries/1/amount must be a finite number, not Infinity"),
    });
    const answered = await fetch(`${base}/broken/body`);
    expect(answered.status).toBe(500);
    expect(await answered.json()).toMatchObject({
      error: "handler_response",
      message: expect.stringContaining("body/amount must be a finite number, not NaN"),
    });
    expect(await state("ledger")).toEqual({ entries: [{ amount: 5 }] });
    expect((await calls("ledger")).slice(-2).map((call) => [call.status, call.committed])).toEqual([
      [500, false],
      [500, false],
    ]);
  });

  it("keeps the record in step with what clients were answered", async () => {
    const health = await fetch(`${origin}/health`);
    expect(health.status).toBe(200);
    const lines = readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const malformed = lines.filter((line) => line.tool === "malformed");
    expect(malformed.length).toBe(MALFORMED.length + 1);
    expect(malformed.filter((line) => line.result.isError === true).length).toBe(MALFORMED.length);
    expect(malformed.at(-1).result).toEqual({ content: [{ type: "text", text: "fine" }] });
  });
});

describe("resuming from a state file that breaks the entities", () => {
  /** Starts serve resuming from `file`; what it printed when it refused, or a failure when it served. */
  async function refusal(file: string): Promise<string> {
    try {
      const serve = await startServe([HOSTILE, "--resume-state-file", file]);
      serve.child.kill("SIGTERM");
      await serve.exited;
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error("serve started from a state file it should have refused");
  }
  const good = { vault: { items: [], counter: 3, ratio: 1 }, ledger: { entries: [] } };

  it("refuses to start, naming the fake, the entity and each problem", async () => {
    const file = join(temp(), "state.json");
    writeFileSync(file, JSON.stringify({ vault: { ...good.vault, counter: "three" }, ledger: { entries: { "1": 5 } } }));
    const stderr = await refusal(file);
    expect(stderr).toContain("serve exited 1 before starting");
    expect(stderr).toContain("cannot resume: the states do not fit the fakes' entities (2 problems):\n");
    expect(stderr).toContain('fake "vault" entity "counter" is outside its schema: data must be integer');
    expect(stderr).toContain('fake "ledger" entity "entries" is outside its schema: data must be array');
  });

  it("refuses a state file holding 1e309, which JSON reads as Infinity", async () => {
    const file = join(temp(), "state.json");
    writeFileSync(file, JSON.stringify(good).replace('"counter":3', '"counter":3,"ratio":1e309').replace(',"ratio":1}', "}"));
    const stderr = await refusal(file);
    expect(stderr).toContain("serve exited 1 before starting");
    expect(stderr).toContain('fake "vault" entity "ratio" is not plain JSON: ratio must be a finite number, not Infinity');
  });

  it("checks the initial states a resume reports too, in-process", async () => {
    const { fakes, world } = await loadFakes(HOSTILE, { clock: "2026-10-01T09:00:00Z" });
    const initial = { vault: { ...good.vault, items: "none" }, ledger: good.ledger };
    await expect(startServices(fakes, { world, resume: { states: good, initial } })).rejects.toThrow(
      '[eval-simulate] cannot resume: the states do not fit the fakes\' entities (1 problem):\n  initial state: fake "vault" entity "items" is outside its schema: data must be array',
    );
  });

  it("starts from a state file that fits the entities", async () => {
    const file = join(temp(), "state.json");
    writeFileSync(file, JSON.stringify(good));
    const serve = await startServe([HOSTILE, "--resume-state-file", file]);
    try {
      expect(await (await fetch(`http://127.0.0.1:${serve.port}/vault/admin/state`)).json()).toEqual(good.vault);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });
});
