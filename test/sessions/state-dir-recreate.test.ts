import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { readRecord } from "../../engine/entries/verify.js";
import { connect, serve } from "../support/services.js";
import { loadState } from "../../engine/entries/verify.js";

const SLOW_FIXTURE = new URL("../fixtures/session-slow-commit/fakes.yaml", import.meta.url).pathname;
type Gate = { gate?: Promise<void>; started?: () => void };
const slowCommit = ((globalThis as { __slowCommit?: Gate }).__slowCommit ??= {});

async function callIn(url: string, name: string, args: Record<string, unknown>) {
  const client = await connect(url);
  try {
    return await client.callTool({ name, arguments: args });
  } finally {
    await client.close();
  }
}

describe("a session's id taken again while its last holder's call is in flight", () => {
  let services: Services;
  afterEach(() => services?.close());

  it("waits for the old session's calls: its files and record hold only the new world after the old one's lines", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-recreate-"));
    const stateDir = join(dir, "sessions");
    const record = join(dir, "record.jsonl");
    services = await serve(SLOW_FIXTURE, { warn: () => {}, stateDir, record });
    let release!: () => void;
    slowCommit.gate = new Promise<void>((resolve) => (release = resolve));
    const started = new Promise<void>((resolve) => (slowCommit.started = resolve));

    const old = await services.createSession({ id: "t" });
    const slow = callIn(old.url("counter"), "slow-bump", { by: 5 });
    await started;
    const closed = old.close();
    // Taken again at once, and the new holder calls as soon as it has the session.
    const fresh = services.createSession({ id: "t" }).then(async (session) => {
      await callIn(session.url("counter"), "bump", { by: 1 });
      return session;
    });
    // The slow call is let go a while later: long after a session that did not wait was made.
    setTimeout(release, 200);
    await Promise.all([slow, closed]);
    const session = await fresh;

    expect((await closed).states.counter.counter).toBe(5);
    expect(session.states.counter.counter).toBe(1);
    const file = (kind: string) => loadState(join(stateDir, `t.${kind}.json`)) as { counter: { counter: number } };
    expect(file("state").counter.counter).toBe(1);
    expect(file("initial").counter.counter).toBe(0);
    // The old session's call is recorded before the new session's first: never between them.
    await services.close();
    expect(readRecord(record, { session: "t" }).map((line) => ("tool" in line ? line.tool : ""))).toEqual(["slow-bump", "bump"]);
  });
});
