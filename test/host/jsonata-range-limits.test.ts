import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, startServe } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { connect, textOf } from "../support/services.js";

/**
 * jsonata 2.2.2 builds `[a..b]` with `item++`, which stops changing the number at 2^53: one
 * schema-valid request used to block the host's event loop, grow it to gigabytes and crash it.
 * These drive the shipped examples and `validate` as real processes, as an agent and CI would.
 */

const HUGE = 9007199254740992; // 2^53
/** Generous: the fakes' time limit is 30 s, and a blocked host would never answer at all. */
const WITHIN_MS = 20_000;

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

async function healthy(port: number): Promise<unknown> {
  return (await fetch(`http://127.0.0.1:${port}/health`)).json();
}

describe("a range bound past 2^53 in a request, served by a real process", () => {
  it("answers the CRM's list-records at offset 2^53 with a tool error, and the host serves on", async () => {
    const serve = await startServe([`${ROOT}examples/crm/fakes.yaml`]);
    try {
      const client = await connect(`http://127.0.0.1:${serve.port}/crm/mcp`);
      const before = await (await fetch(`http://127.0.0.1:${serve.port}/crm/admin/state`)).json();
      const { value: result, ms } = await timed(client.callTool({ name: "list-records", arguments: { object: "deals", offset: HUGE } }));
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`gave a range the bound ${HUGE}`);
      expect(ms).toBeLessThan(WITHIN_MS);
      expect(await healthy(serve.port)).toEqual({ ok: true });
      const next = await client.callTool({ name: "list-records", arguments: { object: "deals" } });
      expect(next.isError, textOf(next)).toBeFalsy();
      expect(await (await fetch(`http://127.0.0.1:${serve.port}/crm/admin/state`)).json()).toEqual(before);
      await client.close();
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });

  it("answers GitHub's issue list at page 1e15 with the handler-failure 500, and the host serves on", async () => {
    const serve = await startServe([`${ROOT}examples/github/fakes.yaml`]);
    try {
      const base = `http://127.0.0.1:${serve.port}/github/repos/acme/widgets/issues`;
      const { value: response, ms } = await timed(fetch(`${base}?page=1e15`));
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ error: "handler_error", message: expect.stringContaining("gave a range the bound") });
      expect(ms).toBeLessThan(WITHIN_MS);
      expect(await healthy(serve.port)).toEqual({ ok: true });
      expect((await fetch(`${base}?page=1`)).status).toBe(200);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });

  it("answers GitHub's issue list with per_page=0 or page=0 as the default page, not a 500", async () => {
    const serve = await startServe([`${ROOT}examples/github/fakes.yaml`]);
    try {
      const base = `http://127.0.0.1:${serve.port}/github/repos/acme/widgets/issues`;
      const plain = await (await fetch(base)).json();
      for (const query of ["per_page=0", "page=0", "per_page=-3&page=-1"]) {
        const response = await fetch(`${base}?${query}`);
        expect(response.status, query).toBe(200);
        expect(await response.json(), query).toEqual(plain);
      }
      const capped = await fetch(`${base}?per_page=1000`);
      expect(await capped.json()).toEqual(plain);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });
});

describe("a range bound past 2^53 in a manifest, checked by validate as a real process", () => {
  it("reports a scenario's $expr and an invariant as errors within seconds; a stub's answer is data, never evaluated", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-range-"));
    copyFileSync(`${ROOT}test/fixtures/error-handler-syntax/tools.json`, join(dir, "tools.json"));
    const range = `[${HUGE}..${HUGE + 1}]`;
    writeFileSync(
      join(dir, "fakes.yaml"),
      [
        "version: 1",
        "servers:",
        "  notes:",
        "    captured: tools.json",
        "    entities:",
        "      notes: { schema: { type: array }, default: [] }",
        "    tools:",
        "      list-notes:",
        "        reads: [notes]",
        "        answer: { format: json, schema: { type: object } }",
        `        jsonata: '{ "notes": $state.notes }'`,
        "scenarios:",
        "  quiet:",
        "    default: true",
        "    stubs:",
        "      - id: literal",
        "        tool: notes/list-notes",
        `        outcome: { answer: { $expr: "${range}" } }`,
        "  huge:",
        "    state:",
        "      notes:",
        `        notes: { $expr: "${range}" }`,
        "invariants:",
        "  - name: counts a huge range",
        `    assert: '$count(${range}) = 2'`,
        "",
      ].join("\n"),
    );
    const { value: run, ms } = await timed(runCli(["validate", join(dir, "fakes.yaml"), "--format", "json"]));
    expect(run.code, run.stderr).toBe(1);
    expect(ms).toBeLessThan(10_000);
    const messages = JSON.parse(run.stdout)
      .files[0].diagnostics.map((d: { message: string }) => d.message)
      .join("\n");
    expect(messages).toContain(`$expr failed: the expression gave a range the bound ${HUGE}`);
    expect(messages).toMatch(/the invariant "counts a huge range" does not hold in scenario "quiet": failed.*gave a range the bound/);
  });
});
