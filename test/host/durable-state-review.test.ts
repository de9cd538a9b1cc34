import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyEntityPatch, snapshotHash, withStateLog } from "../../engine/core/record/index.js";
import { DurableStateFile, type SnapshotStep } from "../../engine/serve/host/durable-state.js";
import { commitPatches } from "../../engine/serve/host/record-changes.js";
import { StateStore, type States } from "../../engine/serve/runtime/state-store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-durable-review-"));
  dirs.push(dir);
  return dir;
};
const json = (value: unknown) => JSON.parse(JSON.stringify(value));
const readBack = (file: string): unknown => {
  const text = readFileSync(file, "utf8");
  return withStateLog(file, text, JSON.parse(text));
};
const seed = (): States => ({ notes: { counter: 0, notes: [{ id: "n1", title: "Kickoff" }] } });

function durableStore(file: string, onStep?: (step: SnapshotStep) => void, keepOpen?: boolean) {
  const states = seed();
  const store = new StateStore(states, json(states), false);
  const warnings: string[] = [];
  const durable = new DurableStateFile(file, () => store.states, {
    warn: (message) => warnings.push(message),
    snapshotMs: 60_000,
    snapshotLogBytes: 1 << 30,
    onStep,
    keepOpen,
  });
  durable.start();
  store.onCommit((fake, commit) => durable.append(fake, commitPatches(commit)));
  return { store, durable, warnings };
}

describe("a durable state file replaced by a new world on the same file", () => {
  it("reads back as the new world when the new writer is killed after its snapshot's rename", () => {
    // A session reset (or a new run) starts the seed world again on the same file: the seed's
    // snapshot has the same bytes as the one the old log's header names.
    for (const crashAt of ["renamed", "log-replaced"] as const) {
      const file = join(temp(), "state.json");
      const first = durableStore(file);
      first.store.commit("notes", { counter: 41 });
      first.durable.abandon();
      expect(() =>
        durableStore(file, (step) => {
          if (step === crashAt) throw new Error(`crashed after ${step}`);
        }),
      ).toThrow(/crashed/);
      expect(readBack(file), `crash after ${crashAt}`).toEqual(seed());
    }
  });
});

describe("a durable state file when the disk is full for a while", () => {
  it("loses no acknowledged commit when its line and the rewrite after it both fail and the next line is written", () => {
    const dir = temp();
    const file = join(dir, "state.json");
    const { store, durable, warnings } = durableStore(file, undefined, false);
    store.commit("notes", { counter: 1 });
    // The commit's line fails (ENOSPC) and so does the whole-world rewrite after it: its
    // temporary file (the writer's third) cannot be created. Then space comes back.
    renameSync(`${file}.log`, `${file}.log.saved`);
    symlinkSync("/dev/full", `${file}.log`);
    mkdirSync(`${file}.${process.pid}.3.tmp`);
    store.commit("notes", { counter: 2 });
    expect(warnings.join("\n")).toMatch(/ENOSPC/);
    rmSync(`${file}.log`);
    rmSync(`${file}.${process.pid}.3.tmp`, { recursive: true });
    renameSync(`${file}.log.saved`, `${file}.log`);
    store.commit("notes", { notes: [] });
    expect(readBack(file)).toEqual(json(store.states));
    durable.close();
  });

  it("leaves no temporary file behind when a whole-world rewrite fails", () => {
    const dir = temp();
    const file = join(dir, "state.json");
    const { store, durable, warnings } = durableStore(file, undefined, false);
    store.commit("notes", { counter: 1 });
    renameSync(`${file}.log`, `${file}.log.saved`);
    symlinkSync("/dev/full", `${file}.log`);
    store.commit("notes", { counter: 2 });
    expect(warnings.join("\n")).toMatch(/ENOSPC/);
    durable.abandon();
    rmSync(`${file}.log`);
    rmSync(`${file}.log.saved`);
    expect(readdirSync(dir).sort()).toEqual(["state.json"]);
  });
});

describe("a durable state file closed while a background snapshot is being written", () => {
  it("leaves no temporary file once close returns, as when SIGTERM ends the process then", async () => {
    const dir = temp();
    const file = join(dir, "state.json");
    const big: States = { notes: { counter: 0, notes: Array.from({ length: 20_000 }, (_, i) => ({ id: `n${i}`, title: `note ${i}` })) } };
    const store = new StateStore(big, json(big), false);
    const durable = new DurableStateFile(file, () => store.states, { warn: () => undefined, snapshotMs: 60_000, snapshotLogBytes: 1 << 30 });
    durable.start();
    store.onCommit((fake, commit) => durable.append(fake, commitPatches(commit)));
    store.commit("notes", { counter: 1 });
    const writing = durable.snapshot();
    // Until the background snapshot's temporary file is there, being written.
    while (!readdirSync(dir).some((name) => name.endsWith(".tmp"))) await new Promise((resolve) => setImmediate(resolve));
    durable.close();
    const left = readdirSync(dir).sort();
    await writing;
    expect(left).toEqual(["state.json"]);
    expect(readBack(file)).toEqual(json(store.states));
  });
});

describe("a state file read while a background snapshot replaces it", () => {
  it("gives the world of every acknowledged commit to a reader that read the snapshot just before it was replaced", async () => {
    const file = join(temp(), "state.json");
    const { store, durable } = durableStore(file);
    store.commit("notes", { counter: 1 });
    // The reader has read the old snapshot; the snapshot and its log are replaced before it reads the log.
    const old = readFileSync(file, "utf8");
    await durable.snapshot();
    store.commit("notes", { counter: 2 });
    expect(withStateLog(file, old, JSON.parse(old))).toEqual(json(store.states));
    durable.close();
  });
});

describe("a durable state file another process is writing", () => {
  it("is refused, naming the process, rather than two logs interleaving in one file", () => {
    const dir = temp();
    const file = join(dir, "state.json");
    // A live process other than this one (the test runner's parent) holds the file.
    writeFileSync(`${file}.lock`, `${process.ppid}\n`);
    const states = seed();
    const durable = new DurableStateFile(file, () => states, { warn: () => undefined });
    expect(() => durable.start()).toThrow(new RegExp(`\\[eval-simulate\\] .*state\\.json is being written by process ${process.ppid}`));
    // A session host warns and goes on: its commits must not land in the other process's log.
    durable.append("notes", { counter: [{ op: "replace", path: "", value: 1 }] });
    durable.close();
    expect(readdirSync(dir).sort()).toEqual(["state.json.lock"]);
    expect(readFileSync(`${file}.lock`, "utf8")).toBe(`${process.ppid}\n`);
  });

  it("is taken over from a process that is gone, and released at close", () => {
    const dir = temp();
    const file = join(dir, "state.json");
    writeFileSync(`${file}.lock`, "999999999\n");
    const { store, durable } = durableStore(file);
    store.commit("notes", { counter: 3 });
    durable.close();
    expect(readdirSync(dir).sort()).toEqual(["state.json"]);
    expect(readBack(file)).toEqual(json(store.states));
  });
});

describe("a state log naming an entity __proto__", () => {
  it("keeps it an entity of that name, as JSON (and the Python verify) read it, never the prototype of the others", () => {
    const file = join(temp(), "state.json");
    const text = `${JSON.stringify({ notes: {} }, null, 2)}\n`;
    writeFileSync(file, text);
    const header = { stateLog: 1, snapshot: snapshotHash(text) };
    const commit = { seq: 1, fake: "notes", changes: { ["__proto__"]: [{ op: "replace", path: "", value: { counter: 5 } }] } };
    writeFileSync(`${file}.log`, `${JSON.stringify(header)}\n${JSON.stringify(commit)}\n`);
    const world = readBack(file) as { notes: Record<string, unknown> };
    expect(Object.hasOwn(world.notes, "__proto__")).toBe(true);
    expect(world.notes.counter).toBeUndefined();
  });
});

describe("a JSON Patch through a key named __proto__", () => {
  it("adds and changes an own key of that name, as JSON reads it, leaving the object's prototype alone", () => {
    const added = applyEntityPatch({ a: 1 }, [{ op: "add", path: "/__proto__", value: { polluted: true } }]) as Record<string, unknown>;
    expect(Object.hasOwn(added, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(added)).toBe(Object.prototype);
    expect(added.polluted).toBeUndefined();
    const nested = applyEntityPatch(JSON.parse('{"__proto__": {"x": 1}}'), [{ op: "replace", path: "/__proto__/x", value: 2 }]) as Record<string, unknown>;
    expect(JSON.stringify(nested)).toBe('{"__proto__":{"x":2}}');
  });
});

describe("a background snapshot that fails after its bytes are written", () => {
  it("leaves no temporary file (a full disk failing each mark would fill up with whole worlds)", async () => {
    const dir = temp();
    const file = join(dir, "state.json");
    // The step's error stands for the mark's write failing (ENOSPC) once the snapshot is written whole.
    let armed = false;
    const { store, durable, warnings } = durableStore(file, (step) => {
      if (armed && step === "written") throw new Error("ENOSPC: no space left on device, write");
    });
    store.commit("notes", { counter: 1 });
    armed = true;
    await durable.snapshot();
    expect(warnings.join("\n")).toMatch(/ENOSPC/);
    expect(readdirSync(dir).sort()).toEqual(["state.json", "state.json.lock", "state.json.log"]);
    expect(readBack(file)).toEqual(json(store.states));
    durable.abandon();
  });
});
