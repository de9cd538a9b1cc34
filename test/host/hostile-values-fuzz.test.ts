/**
 * Fuzzing a real `serve` process with deep nesting, huge numbers and non-finite numbers, through
 * MCP arguments, API bodies and parameters. Whatever comes in, the process keeps answering, every
 * refusal is short, and the state holds exactly what was accepted, as plain JSON. Bounded: a fixed
 * number of inputs, each call well under the fake's time limit.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServeProcess, startServe } from "../support/cli-process.js";
import { HOSTILE, rawToolsCall } from "../support/raw-mcp.js";
import { seededDraws as random } from "../../engine/serve/stubs/fault-set.js";
import { loadState } from "../../engine/entries/verify.js";

const nested = (depth: number, shape: "array" | "object") =>
  shape === "array" ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/** Number texts at and past the edges of a double. */
const NUMBERS = [
  "0",
  "-0",
  "1e-400",
  "5e-324",
  "9007199254740993",
  "123456789012345678901234567890",
  "1.7976931348623157e308",
  "-1.7976931348623157e308",
  "1.7976931348623159e308",
  "1e308",
  "1e309",
  "-1e309",
  "0.1e400",
  `1${"0".repeat(400)}`,
  `-${"9".repeat(320)}.5`,
  "1E+999",
  "2e-999999",
];

/** A random JSON text with numbers drawn from NUMBERS, and the depth it nests to. */
function randomJson(next: () => number, depth = 0): { text: string; depth: number } {
  const roll = next();
  if (depth > 6 || roll < 0.4) return { text: NUMBERS[Math.floor(next() * NUMBERS.length)], depth: 0 };
  if (roll < 0.5) return { text: JSON.stringify(`s${Math.floor(next() * 100)}`), depth: 0 };
  const items = Array.from({ length: 1 + Math.floor(next() * 3) }, () => randomJson(next, depth + 1));
  const inner = Math.max(...items.map((item) => item.depth)) + 1;
  if (roll < 0.75) return { text: `[${items.map((item) => item.text).join(",")}]`, depth: inner };
  return { text: `{${items.map((item, i) => `"k${i}":${item.text}`).join(",")}}`, depth: inner };
}

const finite = (text: string) => Number.isFinite(Number(text));
const allFinite = (text: string) => NUMBERS.every((n) => finite(n) || !new RegExp(`(^|[\\[,:])${n.replace(/[.+]/g, "\\$&")}(?=[\\],}]|$)`).test(text));

describe("fuzzing a served fake with deep nesting, huge numbers and non-finite numbers", () => {
  let serve: ServeProcess;
  let origin: string;
  const stateFile = join(mkdtempSync(join(tmpdir(), "eval-simulate-fuzz-")), "state.json");
  /** What each fake's state must hold: the values accepted, as JSON text. */
  const kept: string[] = [];
  const entries: string[] = ['{"amount":5}'];

  beforeAll(async () => {
    serve = await startServe([HOSTILE, "--clock", "2026-10-01T09:00:00Z", "--state-file", stateFile]);
    origin = `http://127.0.0.1:${serve.port}`;
  });
  afterAll(async () => {
    serve.child.kill("SIGTERM");
    await serve.exited;
  });

  /** Stores a value through a tool; true when it was accepted. */
  async function store(tool: "store" | "store-ts", valueText: string): Promise<boolean> {
    const answer = await rawToolsCall(origin, "vault", tool, `{"value":${valueText}}`);
    if (answer.status === 413) return false;
    expect(answer.status).toBe(200);
    expect(answer.error).toBeUndefined();
    const text = answer.result!.content[0].text!;
    if (answer.result!.isError) {
      expect(text.length).toBeLessThan(400);
      return false;
    }
    kept.push(JSON.stringify({ value: JSON.parse(valueText) }));
    expect(JSON.parse(text)).toEqual({ count: kept.length + 1 });
    return true;
  }

  /** Posts an entry to the API fake; true when it was accepted. */
  async function post(bodyText: string): Promise<boolean> {
    const response = await fetch(`${origin}/ledger/entries`, { method: "POST", headers: { "content-type": "application/json" }, body: bodyText });
    const body = await response.text();
    if (response.status !== 201) {
      expect([400, 413, 500]).toContain(response.status);
      expect(body.length).toBeLessThan(800);
      return false;
    }
    entries.push(JSON.stringify(JSON.parse(bodyText)));
    return true;
  }

  async function expectHealthyAndExact(): Promise<void> {
    expect((await fetch(`${origin}/health`)).status).toBe(200);
    const vault = await (await fetch(`${origin}/vault/admin/state`)).json();
    expect(vault.items.map((item: unknown) => JSON.stringify(item))).toEqual(['"first"', ...kept]);
    const ledger = await (await fetch(`${origin}/ledger/admin/state`)).json();
    expect(ledger.entries.map((entry: unknown) => JSON.stringify(entry))).toEqual(entries);
  }

  it("keeps a value nested up to the state's limit and refuses deeper ones, at any depth a body can carry", { timeout: 120_000 }, async () => {
    for (const depth of [1, 10, 254, 255, 256, 257, 999, 1000, 1001, 5_000, 100_000, 300_000]) {
      for (const shape of ["array", "object"] as const) {
        const value = nested(depth, shape);
        // The entity and the arguments (or body) are two levels, the value's own containers the rest; 256 in all.
        expect(await store("store", value), `store ${shape} ${depth}`).toBe(depth <= 254);
        expect(await store("store-ts", value), `store-ts ${shape} ${depth}`).toBe(depth <= 254);
        expect(await post(`{"amount":1,"memo":${value}}`), `POST ${shape} ${depth}`).toBe(depth <= 254);
      }
      await expectHealthyAndExact();
    }
  });

  it("keeps every finite number as JSON reads it and refuses every non-finite one, in arguments, bodies and parameters", { timeout: 120_000 }, async () => {
    for (const text of NUMBERS) {
      expect(await store("store", text), `store ${text}`).toBe(finite(text));
      expect(await post(`{"amount":${text}}`), `POST ${text}`).toBe(finite(text));
      const divided = await rawToolsCall(origin, "vault", "divide", `{"a":${text},"b":1}`);
      expect(divided.result?.isError === true, `divide ${text}`).toBe(!finite(text));
      for (const url of [`${origin}/ledger/entries?page=${encodeURIComponent(text)}`, `${origin}/ledger/entries/${encodeURIComponent(text)}`]) {
        const response = await fetch(url);
        expect(response.status, url).toBe(finite(text) ? 200 : 400);
        if (!finite(text)) expect(await response.text()).toContain("must be a finite number");
      }
      const header = await fetch(`${origin}/ledger/entries`, { headers: { "x-limit": text } });
      expect(header.status, `x-limit ${text}`).toBe(finite(text) ? 200 : 400);
    }
    await expectHealthyAndExact();
    expect((await (await fetch(`${origin}/vault/admin/state`)).json()).ratio).toBeTypeOf("number");
  });

  it("accepts a random value exactly when every number in it is finite (300 seeded values)", { timeout: 120_000 }, async () => {
    const next = random(20261130);
    for (let i = 0; i < 300; i++) {
      const { text } = randomJson(next);
      const tool = i % 2 === 0 ? "store" : "store-ts";
      expect(await store(tool, text), `${tool} #${i}: ${text}`).toBe(allFinite(text));
      if (i % 3 === 0) expect(await post(`{"amount":1,"memo":${text}}`), `POST #${i}: ${text}`).toBe(allFinite(text));
    }
    await expectHealthyAndExact();
    // What the state file says (its snapshot and log) is what the admin route says: no number turned into null on the way.
    const file = loadState(stateFile) as { vault: { items: unknown[] } };
    expect(file.vault.items.map((item: unknown) => JSON.stringify(item))).toEqual(['"first"', ...kept]);
  });
});
