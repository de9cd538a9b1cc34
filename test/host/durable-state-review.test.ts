import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withStateLog } from "../../engine/core/record/index.js";
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

function durableStore(file: string, onStep?: (step: SnapshotStep) => void) {
  const states = seed();
  const store = new StateStore(states, json(states), false);
  const durable = new DurableStateFile(file, () => store.states, { warn: () => undefined, snapshotMs: 60_000, snapshotLogBytes: 1 << 30, onStep });
  durable.start();
  store.onCommit((fake, commit) => durable.append(fake, commitPatches(commit)));
  return { store, durable };
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
