/**
 * The world a trial left behind, at any commit: each commit's patches (a record line's `changes`)
 * folded in order up to the one asked for. Results files keep no starting world, so this is the
 * part of the world the trial touched: each record added, updated or removed by then, with its
 * value at that commit, and every other entity's JSON Patch operations.
 */
import type { ToolCallView } from "./transcript.js";

export interface TouchedRecord {
  key: string;
  status: "added" | "updated" | "removed";
  value?: unknown;
  /** The commit that last touched it. */
  commit: number;
}

export interface EntityAtCommit {
  fake: string;
  entity: string;
  records: TouchedRecord[];
  /** JSON Patch operations of an entity that is not a list of records. */
  operations: unknown[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The commits of a trial's calls, in order. */
export const commitsOf = (calls: readonly ToolCallView[]) => calls.filter((c) => c.commit !== undefined).sort((a, b) => (a.commit ?? 0) - (b.commit ?? 0));

/** The touched world after commit `upTo` (every commit when undefined). */
export function worldAtCommit(calls: readonly ToolCallView[], upTo?: number): EntityAtCommit[] {
  const entities = new Map<string, EntityAtCommit & { byKey: Map<string, TouchedRecord> }>();
  for (const call of commitsOf(calls)) {
    const commit = call.commit ?? 0;
    if (upTo !== undefined && commit > upTo) break;
    for (const [entity, patch] of Object.entries(call.changes ?? {})) {
      const id = `${call.server}\u0000${entity}`;
      const slot: EntityAtCommit & { byKey: Map<string, TouchedRecord> } = entities.get(id) ?? {
        fake: call.server,
        entity,
        records: [],
        operations: [],
        byKey: new Map(),
      };
      entities.set(id, slot);
      if (Array.isArray(patch)) {
        slot.operations.push(...(patch as unknown[]));
        continue;
      }
      if (!isObject(patch)) continue;
      const key = String(patch.key ?? "id");
      const touch = (value: unknown, status: TouchedRecord["status"]) => {
        const name = isObject(value) ? String(value[key]) : String(value);
        const before = slot.byKey.get(name);
        // A record added in this trial and updated later is still new to the world.
        const kept = status === "updated" && before?.status === "added" ? "added" : status;
        slot.byKey.set(name, { key: name, status: kept, ...(status === "removed" ? {} : { value }), commit });
      };
      for (const value of Array.isArray(patch.added) ? patch.added : []) touch(value, "added");
      for (const value of Array.isArray(patch.updated) ? patch.updated : []) touch(value, "updated");
      for (const value of Array.isArray(patch.removed) ? patch.removed : []) touch(value, "removed");
    }
  }
  return [...entities.values()].map(({ byKey, ...entity }) => ({ ...entity, records: [...byKey.values()] }));
}
