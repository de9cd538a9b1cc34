/**
 * What a stored trial was judged against: a hash of its case and of the fakes it ran on (their
 * manifest as loaded, the handler and world modules' files, and the world the case starts
 * from). A resume reuses a stored verdict only when its line carries the same hash; a case
 * edited since, or a fake changed under it, is run again.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { EvalCase } from "../../../schema/evals/evals.js";
import type { LoadedFakes } from "../../author/fakes/index.js";
import { parseClock } from "../../author/world/index.js";
import { valueHash, worldHash } from "../../core/record/index.js";
import { startingStates } from "../../serve/host/index.js";

/** The clock a case without one is hashed at: its world's content, not today's date, is what counts. */
const HASH_CLOCK = "2000-01-01T00:00:00.000Z";

const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

/**
 * The fakes' content as one hash: the loaded manifest (functions left out; an object met twice
 * written once) and the bytes of every TypeScript module it loaded, whose code the JSON lacks.
 *
 * @example goldenFileStore({ dir, secret, fakes: fakesContentHash(loaded.fakes) })
 */
export function fakesContentHash(loaded: LoadedFakes): string {
  const seen = new WeakSet<object>();
  const modules = new Set<string>();
  const text = JSON.stringify(loaded.manifest, (_key, value: unknown) => {
    if (typeof value === "function") return undefined;
    if (typeof value === "object" && value !== null) {
      if (seen.has(value)) return "[seen]";
      seen.add(value);
      const entry = value as { kind?: unknown; file?: unknown };
      if (entry.kind === "module" && typeof entry.file === "string") modules.add(entry.file);
    }
    return value;
  });
  const hash = createHash("sha256").update(text ?? "");
  for (const file of [...modules].sort()) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      bytes = Buffer.from(`unreadable ${file}`);
    }
    hash.update(`\n${file}\n`).update(bytes);
  }
  return hash.digest("hex");
}

/**
 * Each case's hash, by case: its own canonical JSON, the fakes' content, and the hash of the
 * world it starts from (its scenario at its clock). A world that cannot be built hashes as its
 * error, so the trial runs and says why.
 *
 * @example const hashes = await caseHashes(cases, loaded); line.caseHash = hashes.get(c);
 */
export async function caseHashes(cases: readonly EvalCase[], loaded: LoadedFakes): Promise<Map<EvalCase, string>> {
  const fakes = fakesContentHash(loaded);
  const worlds = new Map<string, Promise<string>>();
  const worldOf = (c: EvalCase) => {
    const key = `${c.scenario ?? ""}\n${c.clock ?? HASH_CLOCK}`;
    let hash = worlds.get(key);
    if (!hash) {
      hash = startingStates(loaded.fakes, { world: loaded.world, scenario: c.scenario }, parseClock(c.clock ?? HASH_CLOCK)).then(
        (s) => worldHash(s.states).hash,
        (error: Error) => `error ${error.message}`,
      );
      worlds.set(key, hash);
    }
    return hash;
  };
  const out = new Map<EvalCase, string>();
  for (const c of cases) out.set(c, sha256(`${valueHash(c)}\n${fakes}\n${await worldOf(c)}`).slice(0, 16));
  return out;
}
