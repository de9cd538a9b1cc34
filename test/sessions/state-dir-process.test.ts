import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startServe } from "../support/cli-process.js";
import { connect, SERVE_FIXTURE } from "../support/services.js";
import { loadState } from "../../engine/entries/verify.js";

const temp = () => mkdtempSync(join(tmpdir(), "eval-simulate-state-dir-"));

describe("eval-simulate serve with sessions, as a real process", () => {
  it("leaves each session's files parsing and holding a committed state when killed with -9 mid-run", async () => {
    const dir = temp();
    const serve = await startServe([SERVE_FIXTURE, "--state-dir", dir], { EVAL_SIMULATE_MAX_SESSIONS: "2" });
    const origin = `http://127.0.0.1:${serve.port}`;
    const create = (id: string) =>
      fetch(`${origin}/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id }) });
    expect((await create("busy")).status).toBe(201);
    expect((await create("idle")).status).toBe(201);
    // EVAL_SIMULATE_MAX_SESSIONS is the limit.
    expect(await (await create("third")).json()).toMatchObject({ error: "too_many_sessions", limit: 2 });
    const client = await connect(`${origin}/s/busy/notes/mcp`);
    // One call committed and answered, then many in flight when the process is killed.
    expect((await client.callTool({ name: "bump-jsonata", arguments: {} })).isError).toBeFalsy();
    const calls = Array.from({ length: 200 }, () => client.callTool({ name: "bump-jsonata", arguments: {} }).catch(() => undefined));
    await new Promise((resolve) => setTimeout(resolve, 30));
    serve.child.kill("SIGKILL");
    await Promise.all(calls);
    await serve.exited;
    // Each file as a reader takes it after the kill: the snapshot with its log applied.
    const read = (name: string) => loadState(join(dir, name)) as { notes: { notes: Array<{ id: string }>; counter: number } };
    const busy = read("busy.state.json");
    expect(busy.notes.notes.map((n: { id: string }) => n.id)).toEqual(["note-1", "note-2", "note-3"]);
    expect(Number.isInteger(busy.notes.counter)).toBe(true);
    expect(busy.notes.counter).toBeGreaterThanOrEqual(1);
    expect(busy.notes.counter).toBeLessThanOrEqual(201);
    expect(read("busy.initial.json").notes.counter).toBe(0);
    expect(read("idle.state.json").notes.counter).toBe(0);
  });
});
