import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { loadState } from "../../engine/entries/verify.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startServe } from "../support/cli-process.js";
import { examples } from "../support/examples.js";
import { connect, SERVE_FIXTURE, textOf } from "../support/services.js";

const temp = () => mkdtempSync(join(tmpdir(), "eval-simulate-"));

describe("eval-simulate serve as a real process", () => {
  it.each(examples())("serves the %s example: lists its tools and answers a call", async (_name, manifest) => {
    const serve = await startServe([manifest, "--clock", "2026-10-01T09:00:00Z"]);
    try {
      const health = await fetch(`http://127.0.0.1:${serve.port}/health`);
      expect(await health.json()).toEqual({ ok: true });
      const id = /^\s+(\S+)\s+http:\/\/\S+\/mcp$/m.exec(serve.stdout())![1];
      const client = await connect(`http://127.0.0.1:${serve.port}/${id}/mcp`);
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      const open = tools.find((t) => !(t.inputSchema.required as string[] | undefined)?.length)!;
      const result = await client.callTool({ name: open.name, arguments: {} });
      expect(result.isError, textOf(result)).toBeFalsy();
      await client.close();
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });

  it("locks the admin routes with EVAL_SIMULATE_ADMIN_TOKEN, as a sidecar is configured", async () => {
    const serve = await startServe([SERVE_FIXTURE], { EVAL_SIMULATE_ADMIN_TOKEN: "sidecar-secret" });
    try {
      const state = `http://127.0.0.1:${serve.port}/notes/admin/state`;
      expect((await fetch(state)).status).toBe(401);
      expect((await fetch(state, { headers: { authorization: "Bearer sidecar-secret" } })).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${serve.port}/health`)).status).toBe(200);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });

  it("closes cleanly on SIGTERM, the whole world written as the state file and its log removed", async () => {
    const dir = temp();
    const serve = await startServe([SERVE_FIXTURE, "--state-file", join(dir, "state.json")]);
    const client = await connect(`http://127.0.0.1:${serve.port}/notes/mcp`);
    await client.callTool({ name: "bump", arguments: { by: 3 } });
    await client.close();
    serve.child.kill("SIGTERM");
    expect(await serve.exited).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "state.json"), "utf8")).notes.counter).toBe(3);
    expect(existsSync(join(dir, "state.json.log"))).toBe(false);
  });

  it("loses no acknowledged write when killed with -9 mid-run: the state file and its log read back whole", async () => {
    const dir = temp();
    const file = join(dir, "state.json");
    const serve = await startServe([SERVE_FIXTURE, "--state-file", file]);
    const client = await connect(`http://127.0.0.1:${serve.port}/notes/mcp`);
    let acknowledged = 0;
    let firstAcknowledged!: () => void;
    const first = new Promise<void>((resolve) => (firstAcknowledged = resolve));
    const calls = Array.from({ length: 200 }, () =>
      client.callTool({ name: "bump-jsonata", arguments: {} }).then(
        (result) => {
          if (result.isError) return;
          acknowledged++;
          firstAcknowledged();
        },
        () => undefined,
      ),
    );
    // Killed while calls are still landing: once one is acknowledged (under load the first may
    // fail), before the last.
    await first;
    await new Promise((resolve) => setTimeout(resolve, 30));
    serve.child.kill("SIGKILL");
    const counted = acknowledged;
    await Promise.all(calls);
    await serve.exited;
    const state = loadState(file) as { notes: { notes: Array<{ id: string }>; counter: number } };
    expect(state.notes.notes.map((n) => n.id)).toEqual(["note-1", "note-2", "note-3"]);
    expect(Number.isInteger(state.notes.counter)).toBe(true);
    // Every call answered before the kill is in it; some may have committed unanswered.
    expect(state.notes.counter).toBeGreaterThanOrEqual(Math.max(1, counted));
    expect(state.notes.counter).toBeLessThan(200);
  });

  it("continues an earlier run from its state files (resume), reporting that run's initial state", async () => {
    const dir = temp();
    const files = { stateFile: join(dir, "state.json"), initialStateFile: join(dir, "initial.json") };
    const first = await startServe([SERVE_FIXTURE, "--state-file", files.stateFile, "--initial-state-file", files.initialStateFile]);
    let client = await connect(`http://127.0.0.1:${first.port}/notes/mcp`);
    await client.callTool({ name: "create-note", arguments: { title: "First run" } });
    await client.close();
    first.child.kill("SIGTERM");
    await first.exited;

    const second = await startServe([SERVE_FIXTURE, "--state-file", files.stateFile, "--initial-state-file", files.initialStateFile], {
      EVAL_SIMULATE_RESUME_STATE_FILE: files.stateFile,
    });
    client = await connect(`http://127.0.0.1:${second.port}/notes/mcp`);
    const created = await client.callTool({ name: "create-note", arguments: { title: "Second run" } });
    expect(textOf(created)).toContain('"id":"note-5"');
    const base = `http://127.0.0.1:${second.port}/notes/admin`;
    const state = await (await fetch(`${base}/state`)).json();
    const initial = await (await fetch(`${base}/initial-state`)).json();
    expect(state.notes.map((n: { title: string }) => n.title)).toEqual(["Kickoff", "Review", "Retro", "First run", "Second run"]);
    expect(initial.notes.map((n: { title: string }) => n.title)).toEqual(["Kickoff", "Review", "Retro"]);
    await client.close();
    second.child.kill("SIGTERM");
    await second.exited;
  });
});
