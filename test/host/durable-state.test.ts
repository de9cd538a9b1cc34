import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { snapshotHash, withStateLog } from "../../engine/core/record/index.js";
import { DurableStateFile, type SnapshotStep } from "../../engine/serve/host/durable-state.js";
import { commitPatches } from "../../engine/serve/host/record-changes.js";
import { type FakeState, StateStore, type States } from "../../engine/serve/runtime/state-store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-durable-"));
  dirs.push(dir);
  return dir;
};

/** What a reader of the state file gets: the snapshot with its log applied. */
function readBack(file: string): unknown {
  const text = readFileSync(file, "utf8");
  return withStateLog(file, text, JSON.parse(text));
}
const json = (value: unknown) => JSON.parse(JSON.stringify(value));

/** A small seeded generator, so a failing sequence of commits can be run again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const startingWorld = (): States => ({
  notes: { notes: [{ id: "n1", title: "Kickoff" }], counter: 0, byId: { a: { v: 1 } } },
  mail: { inbox: [], settings: { theme: "dark", tags: ["x"] } },
});

/** One random commit of the kinds handlers make: records added, changed, removed, reordered; counters; keyed objects; entities removed. */
function randomCommit(store: StateStore, next: () => number, n: number): void {
  const fake = next() < 0.6 ? "notes" : "mail";
  const state = store.states[fake] as FakeState;
  const values: FakeState = {};
  const pick = Math.floor(next() * 6);
  if (fake === "notes") {
    const notes = (state.notes as Array<{ id: string; title: string }> | undefined) ?? [];
    if (pick === 0) values.notes = [...notes, { id: `n${n + 2}`, title: `t${n}` }];
    else if (pick === 1 && notes.length > 0)
      values.notes = notes.map((note, i) => (i === Math.floor(next() * notes.length) ? { ...note, title: `edited ${n}` } : note));
    else if (pick === 2 && notes.length > 0) values.notes = notes.filter((_, i) => i !== Math.floor(next() * notes.length));
    else if (pick === 3) values.notes = [...notes].reverse();
    else if (pick === 4) values.byId = { ...(state.byId as object), [`k${n % 7}`]: { v: n, deep: { list: [n, "~/x"] } } };
    else values.counter = ((state.counter as number | undefined) ?? 0) + 1;
  } else {
    if (pick < 2) values.inbox = [...((state.inbox as unknown[] | undefined) ?? []), { id: n, subject: `s${n}` }];
    else if (pick === 2) values.settings = { ...(state.settings as object), theme: n % 2 ? "light" : "dark", tags: ["x", String(n)] };
    else if (pick === 3) values.draft = state.draft === undefined ? { body: `b${n}` } : undefined;
    else values.inbox = [];
  }
  const commit = store.commit(fake, values);
  expect(commit.seq).toBe(n + 1);
}

/** A store wired to a durable state file the way serve wires it. */
function durableStore(file: string, options: { snapshotLogBytes?: number; onStep?: (step: SnapshotStep) => void; states?: States; keepOpen?: boolean } = {}) {
  const states = options.states ?? startingWorld();
  const store = new StateStore(states, json(states), false);
  const warnings: string[] = [];
  const durable = new DurableStateFile(file, () => store.states, {
    warn: (message) => warnings.push(message),
    snapshotMs: 60_000,
    snapshotLogBytes: options.snapshotLogBytes ?? 1 << 30,
    onStep: options.onStep,
    keepOpen: options.keepOpen,
  });
  durable.start();
  store.onCommit((fake, commit) => durable.append(fake, commitPatches(commit)));
  return { store, durable, warnings };
}

describe("a durable state file", () => {
  it("reads back, snapshot and log, as the world after every commit, over random commits", async () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const file = join(temp(), "state.json");
      // As a host of many sessions keeps them: the log closed after each line.
      const { store, durable, warnings } = durableStore(file, { keepOpen: seed % 2 === 0 });
      const next = random(seed);
      for (let n = 0; n < 120; n++) {
        randomCommit(store, next, n);
        if (n % 17 === 0) expect(readBack(file), `seed ${seed}, commit ${n + 1}`).toEqual(json(store.states));
        // Now and then a background snapshot, so logs that follow later snapshots are read too.
        if (next() < 0.05) await durable.snapshot();
      }
      expect(readBack(file)).toEqual(json(store.states));
      durable.close();
      expect(existsSync(`${file}.log`)).toBe(false);
      expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(json(store.states));
      expect(warnings).toEqual([]);
    }
  });

  it("appends one line per commit and rewrites no snapshot until one is due", () => {
    const file = join(temp(), "state.json");
    const { store } = durableStore(file);
    const before = readFileSync(file, "utf8");
    store.commit("notes", { counter: 1 });
    store.commit("notes", { counter: 2 });
    expect(readFileSync(file, "utf8")).toBe(before);
    const lines = readFileSync(`${file}.log`, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { stateLog: 1, snapshot: snapshotHash(before) },
      { seq: 1, fake: "notes", changes: { counter: [{ op: "replace", path: "", value: 1 }] } },
      { seq: 2, fake: "notes", changes: { counter: [{ op: "replace", path: "", value: 2 }] } },
    ]);
  });

  it("writes a snapshot in the background once the log outgrows its bound, keeping commits made while it is written", async () => {
    const file = join(temp(), "state.json");
    const { store, durable } = durableStore(file, { snapshotLogBytes: 200 });
    for (let n = 1; n <= 5; n++) store.commit("notes", { counter: n });
    const writing = durable.snapshot();
    // Made while the snapshot's bytes are being written: they must be in the log that follows it.
    store.commit("notes", { counter: 6 });
    store.commit("mail", { inbox: [{ id: 1 }] });
    await writing;
    expect(JSON.parse(readFileSync(file, "utf8")).notes.counter).toBe(5);
    const log = readFileSync(`${file}.log`, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(log.map((line) => line.seq)).toEqual([undefined, 6, 7]);
    expect(readBack(file)).toEqual(json(store.states));
    durable.close();
  });

  it("writes snapshots asked for while one is being written one after the other, each reading back whole", async () => {
    const file = join(temp(), "state.json");
    const { store, durable, warnings } = durableStore(file);
    const writes: Promise<void>[] = [];
    for (let n = 1; n <= 4; n++) {
      store.commit("notes", { counter: n });
      writes.push(durable.snapshot());
    }
    store.commit("notes", { counter: 5 });
    await Promise.all(writes);
    expect(readBack(file)).toEqual(json(store.states));
    expect(warnings).toEqual([]);
    durable.close();
    expect(JSON.parse(readFileSync(file, "utf8")).notes.counter).toBe(5);
  });

  it("leaves the last acknowledged world in every crash window of a background snapshot", async () => {
    for (const crashAt of ["marked", "written", "renamed", "log-replaced"] as const) {
      const file = join(temp(), "state.json");
      let armed = false;
      const { store, durable } = durableStore(file, {
        onStep: (step) => {
          if (armed && step === crashAt) throw new Error(`crashed after ${step}`);
        },
      });
      for (let n = 1; n <= 3; n++) store.commit("notes", { notes: [...(store.states.notes.notes as unknown[]), { id: `x${n}` }] });
      armed = true;
      const writing = durable.snapshot();
      store.commit("notes", { counter: 9 });
      await writing;
      // The process is gone at that point: nothing more is written.
      durable.abandon();
      expect(readBack(file), `crash after ${crashAt}`).toEqual(json(store.states));
    }
  });

  it("leaves the last acknowledged world in every crash window of the snapshot at close", () => {
    for (const crashAt of ["marked", "written", "renamed", "log-replaced"] as const) {
      const file = join(temp(), "state.json");
      let armed = false;
      const { store, durable } = durableStore(file, {
        onStep: (step) => {
          if (armed && step === crashAt) throw new Error(`crashed after ${step}`);
        },
      });
      store.commit("mail", { inbox: [{ id: 1 }, { id: 2 }] });
      store.commit("mail", { draft: { body: "hi" } });
      armed = true;
      durable.close();
      expect(readBack(file), `crash after ${crashAt}`).toEqual(json(store.states));
    }
  });

  it("resumes from a killed run's snapshot and log without losing a commit, whenever the new run is killed starting", () => {
    for (const crashAt of ["marked", "written", "renamed", "log-replaced"] as const) {
      const file = join(temp(), "state.json");
      const first = durableStore(file);
      first.store.commit("notes", { counter: 41 });
      first.store.commit("notes", {
        notes: [
          { id: "n1", title: "Kickoff" },
          { id: "n2", title: "More" },
        ],
      });
      first.durable.abandon(); // killed: snapshot and log left as they are
      const resumed = readBack(file) as States;
      expect(resumed).toEqual(json(first.store.states));
      const second = new DurableStateFile(file, () => resumed, {
        warn: () => undefined,
        onStep: (step) => {
          if (step === crashAt) throw new Error(`crashed after ${step}`);
        },
      });
      expect(() => second.start()).toThrow(/crashed/);
      expect(readBack(file), `crash after ${crashAt}`).toEqual(resumed);
    }
  });

  it("leaves out a last line cut short, and cuts it off before appending", () => {
    const file = join(temp(), "state.json");
    const first = durableStore(file);
    first.store.commit("notes", { counter: 1 });
    first.durable.abandon();
    appendFileSync(`${file}.log`, '{"seq":2,"fake":"notes","chan');
    expect((readBack(file) as States).notes.counter).toBe(1);
    const states = readBack(file) as States;
    const again = new DurableStateFile(file, () => states, { warn: () => undefined });
    again.start();
    expect(readBack(file)).toEqual(states);
  });

  it("applies no log written for another snapshot", () => {
    const file = join(temp(), "state.json");
    const { store, durable } = durableStore(file);
    store.commit("notes", { counter: 5 });
    durable.abandon();
    // The snapshot replaced by hand: the log beside it follows the old one.
    writeFileSync(file, `${JSON.stringify({ notes: { counter: 100 } }, null, 2)}\n`);
    expect(readBack(file)).toEqual({ notes: { counter: 100 } });
  });

  it("says which line of a log is broken", () => {
    const file = join(temp(), "state.json");
    const { store, durable } = durableStore(file);
    store.commit("notes", { counter: 5 });
    durable.abandon();
    appendFileSync(`${file}.log`, "not json\n");
    expect(() => readBack(file)).toThrow(/state\.json\.log:3: the state log's line is not JSON/);
  });
});
