/**
 * The golden store of `eval --workers N`: each case's golden replay kept as one file in a folder
 * the run's parent makes (and removes) for the run, so a worker applies what another worker
 * replayed instead of replaying it again. Files are named by the fakes' content hash and the
 * replay's id (scenario, starting world or clock, calls), and signed with a secret the parent
 * hands its workers over IPC, never written to disk: an entry from another run, other fakes or
 * anyone without the secret (a stale or tampered file) is not this run's, and the case is replayed.
 * Bounded: entries of at most `maxBytes`, at most `maxEntries` written by one process.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readRegularFile } from "../../core/files/index.js";
import type { GoldenStore } from "../../judge/evals/index.js";

/** Where a run's workers share golden replays, and the key its entries are signed with. */
export interface GoldenFiles {
  dir: string;
  /** Hex; lives in the run's processes only. */
  secret: string;
}

/** An entry's largest size: a golden world's changes, far less than the world itself. */
export const MAX_GOLDEN_ENTRY_BYTES = 64 * 1024 * 1024;
/** The most entries one process writes: one per case. */
export const MAX_GOLDEN_ENTRIES = 10_000;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * A store of golden replays in `dir`, for the fakes whose content hash is `fakes`.
 *
 * @example useGoldenStore(goldenFileStore({ ...setup.golden, fakes: fakesContentHash(loaded.fakes) }));
 */
export function goldenFileStore(options: GoldenFiles & { fakes: string; maxBytes?: number; maxEntries?: number }): GoldenStore {
  const maxBytes = options.maxBytes ?? MAX_GOLDEN_ENTRY_BYTES;
  const maxEntries = options.maxEntries ?? MAX_GOLDEN_ENTRIES;
  const key = Buffer.from(options.secret, "hex");
  const sign = (id: string, text: string) => createHmac("sha256", key).update(`${options.fakes}\n${id}\n${text}`).digest();
  const fileOf = (id: string) => join(options.dir, `${sha256(`${options.fakes}\n${id}`).slice(0, 40)}.json`);
  let written = 0;
  return {
    async read(id) {
      const read = readRegularFile(fileOf(id), maxBytes + 4096);
      if (!read.ok) return undefined;
      let entry: { mac?: unknown; value?: unknown };
      try {
        entry = JSON.parse(read.text);
      } catch {
        return undefined;
      }
      if (typeof entry?.mac !== "string" || typeof entry.value !== "string") return undefined;
      const mac = Buffer.from(entry.mac, "hex");
      const want = sign(id, entry.value);
      if (mac.length !== want.length || !timingSafeEqual(mac, want)) return undefined;
      return JSON.parse(entry.value);
    },
    async write(id, value) {
      if (written >= maxEntries) return;
      const text = JSON.stringify(value);
      if (text === undefined || Buffer.byteLength(text) > maxBytes) return;
      written++;
      const file = fileOf(id);
      // Written aside and renamed: a reader sees a whole entry or none.
      const aside = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        writeFileSync(aside, JSON.stringify({ mac: sign(id, text).toString("hex"), value: text }), { mode: 0o600 });
        renameSync(aside, file);
      } catch {
        rmSync(aside, { force: true });
      }
    },
  };
}
