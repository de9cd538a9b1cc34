/**
 * The manifest cache: what checking a valid fakes.yaml found that depends on nothing but its
 * text and the engine's build, kept on disk so the next `serve`, `eval` or `validate` of the
 * same text skips it: the YAML parse with positions (the value, and every position the checks
 * asked for), the published schema's check (it passed), and the compiles of the schemas in it
 * (they compiled: on its first use each runs the standalone code ajv generated for it then, or,
 * where ajv wrote none, compiles, with the warnings it gave then).
 * Everything else (the files it names, handlers, scenarios, worlds, the semantic checks) is
 * checked again every time, so an entry cannot hide a change anywhere but in its own text.
 *
 * An entry is keyed by the sha256 of the text and the build's id (dist/build-id.txt, a hash of
 * every file the build wrote): another build, or sources run without a build, never read it.
 * On read it must be a regular file under the size cap whose header names this key and whose
 * body matches the checksum in it, and every field must have its shape; anything else is
 * ignored and the manifest checked in full. The validators' code runs in the process, so it is
 * kept only from an entry owned by the user reading it (like the build's own files, which that
 * user could change anyway); another's entry is used without it. At most `MAX_ENTRIES` files,
 * the oldest removed.
 * `EVAL_SIMULATE_CACHE=0` turns it off; `EVAL_SIMULATE_CACHE_DIR` moves it (default
 * `node_modules/.cache/eval-simulate` in the nearest folder above the manifest that has a
 * `node_modules`; none found, no cache).
 *
 * An evals file is kept the same way, under its own key: its parse with positions and its
 * published schema's check (`judge/evals/load-evals.ts`); everything else about it, its fakes
 * manifest included, is checked again every time.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openRegularFile, readOpenedFile, readRegularFile } from "../../core/files/index.js";
import type { CompileOutcome } from "../contract/index.js";
import type { ParsedBefore, Position } from "../source/index.js";
import { packageRoot } from "./package-root.js";

/** Entries kept at most; writing one more removes the oldest. */
export const MAX_ENTRIES = 64;
/** An entry larger than this is neither written nor read. */
export const MAX_ENTRY_BYTES = 32 * 1024 * 1024;
const FORMAT = "eval-simulate manifest cache 2";

/** What an entry holds. */
export interface CacheEntry extends ParsedBefore {
  compiles: Record<string, CompileOutcome>;
}

/** What a text is checked as: each kind has its own entries. */
export type CachedKind = "manifest" | "evals";

/** One manifest text's place in the cache. */
export interface ManifestCacheSlot {
  read(): CacheEntry | undefined;
  /** `value` is the parse's JSON text, taken before any check changed the value. */
  write(entry: { value: string; positions: Record<string, Position>; compiles: Record<string, CompileOutcome> }): void;
}

let identity: string | null | undefined;
const SOURCES_IDENTITY = `sources ${randomBytes(16).toString("hex")}`;

/**
 * The build's id: dist/build-id.txt when this module runs from a build not rebuilt since (a
 * build the id's own script did not follow is no build to trust); from the sources (tests), one
 * per process, so entries are read only by the process that wrote them.
 */
function buildIdentity(): string | undefined {
  if (identity !== undefined) return identity ?? undefined;
  const self = fileURLToPath(import.meta.url);
  identity = null;
  if (relative(join(packageRoot(), "dist"), self).startsWith("..")) identity = SOURCES_IDENTITY;
  else {
    try {
      const file = join(packageRoot(), "dist", "build-id.txt");
      const read = readRegularFile(file);
      if (read.ok && statSync(file).mtimeMs >= newestDecidingFile(self) && /^[0-9a-f]{64}\s*$/.test(read.text)) identity = read.text.trim();
    } catch {
      identity = null;
    }
  }
  return identity ?? undefined;
}

/** Whether this module runs from the package's bundle (scripts/bundle.mjs), not tsc's files. */
const bundled = (self: string) => !/[\\/]author[\\/]manifest[\\/]manifest-cache\.js$/.test(self);

/**
 * The newest change time of what decides an entry's steps: this module, the schema check and
 * the validators precompiled for it, and the published schema itself. A part rebuilt after the
 * id (`tsc --watch`, the validators' script alone) makes the id no longer the build's.
 */
function newestDecidingFile(self: string): number {
  const root = packageRoot();
  const validators = join(root, "dist", "validators");
  const files = [
    self,
    // tsc's files have the check beside this one; the bundle wrote it with this file, at once.
    ...(bundled(self) ? [] : [join(dirname(self), "schema-check.js")]),
    join(root, "eval-simulate.schema.json"),
    join(root, "eval-simulate.evals.schema.json"),
    ...(existsSync(validators) ? readdirSync(validators).map((name) => join(validators, name)) : []),
  ];
  return Math.max(...files.map((file) => (existsSync(file) ? statSync(file).mtimeMs : Number.POSITIVE_INFINITY)));
}

/** Where entries go, or undefined when the cache is off or has no place. */
function cacheDir(manifestDir: string): string | undefined {
  const setting = process.env.EVAL_SIMULATE_CACHE;
  if (setting !== undefined && /^(0|false|off|no)$/i.test(setting.trim())) return undefined;
  const chosen = process.env.EVAL_SIMULATE_CACHE_DIR;
  if (chosen) return resolve(chosen);
  // From the sources (the engine's own tests), only a folder set on purpose.
  if (buildIdentity() === SOURCES_IDENTITY) return undefined;
  for (let dir = resolve(manifestDir); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules"))) return join(dir, "node_modules", ".cache", "eval-simulate");
    if (dirname(dir) === dir) return undefined;
  }
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The cache's slot for a manifest's (or an evals file's) text, or undefined when there is no cache to use.
 *
 * @example const slot = manifestCacheSlot(dirname(file), text); const hit = slot?.read();
 */
export function manifestCacheSlot(manifestDir: string, text: string, kind: CachedKind = "manifest"): ManifestCacheSlot | undefined {
  const build = buildIdentity();
  const dir = build && cacheDir(manifestDir);
  if (!build || !dir) return undefined;
  const key = sha256(`${FORMAT}\n${build}\n${kind}\n${sha256(text)}`);
  const file = join(dir, `${key}.json`);
  return {
    read: () => readEntry(file, key),
    write: (entry) => writeEntry(dir, file, key, entry),
  };
}

function readEntry(file: string, key: string): CacheEntry | undefined {
  if (!existsSync(file)) return undefined;
  const read = readEntryFile(file);
  if (!read) return undefined;
  const { ours } = read;
  const newline = read.text.indexOf("\n");
  if (newline < 0) return undefined;
  try {
    const header = JSON.parse(read.text.slice(0, newline)) as { format?: unknown; key?: unknown; checksum?: unknown };
    const body = read.text.slice(newline + 1);
    if (header.format !== FORMAT || header.key !== key || header.checksum !== sha256(body)) return undefined;
    return entryOf(JSON.parse(body), ours);
  } catch {
    return undefined;
  }
}

/**
 * The entry's text, and whether the file it was read from belongs to this process's user
 * (always, where there are no user ids): the owner of the descriptor the text was read from,
 * so a file swapped in between the two cannot lend its owner to the other's text.
 */
function readEntryFile(file: string): { text: string; ours: boolean } | undefined {
  const opened = openRegularFile(file, MAX_ENTRY_BYTES);
  if (!opened.ok) return undefined;
  const ours = process.getuid === undefined || opened.uid === process.getuid();
  const read = readOpenedFile(opened.fd, MAX_ENTRY_BYTES);
  return read.ok ? { text: read.text, ours } : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

/** The entry, when every field has its shape; the validators' code only when `withCode`. */
function entryOf(body: unknown, withCode: boolean): CacheEntry | undefined {
  if (!isObject(body) || !isObject(body.positions) || !isObject(body.compiles) || typeof body.value !== "string") return undefined;
  for (const position of Object.values(body.positions)) {
    if (!isObject(position) || !Number.isInteger(position.line) || !Number.isInteger(position.column)) return undefined;
  }
  for (const outcome of Object.values(body.compiles)) {
    if (!isObject(outcome) || !isStrings(outcome.warnings) || !Array.isArray(outcome.notes)) return undefined;
    if (!outcome.notes.every((note) => isObject(note) && typeof note.pattern === "string" && typeof note.reason === "string")) return undefined;
    if (outcome.code !== undefined && typeof outcome.code !== "string") return undefined;
  }
  const compiles = body.compiles as Record<string, CompileOutcome>;
  if (!withCode) for (const outcome of Object.values(compiles)) delete outcome.code;
  return {
    value: JSON.parse(body.value),
    positions: body.positions as Record<string, Position>,
    compiles,
  };
}

/** Written whole or not at all (a temporary file renamed), then the folder trimmed. A failure only skips the cache. */
function writeEntry(dir: string, file: string, key: string, entry: Parameters<ManifestCacheSlot["write"]>[0]): void {
  const body = JSON.stringify(entry);
  const header = JSON.stringify({ format: FORMAT, key, checksum: sha256(body) });
  if (body.length + header.length + 1 > MAX_ENTRY_BYTES) return;
  const temporary = join(dir, `.${key}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, `${header}\n${body}`, { mode: 0o600 });
    renameSync(temporary, file);
    trim(dir);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/** Keeps the newest `MAX_ENTRIES` entries. */
function trim(dir: string): void {
  const entries = readdirSync(dir)
    .filter((name) => /^[0-9a-f]{64}\.json$/.test(name))
    .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }));
  if (entries.length <= MAX_ENTRIES) return;
  entries.sort((a, b) => a.at - b.at);
  for (const { name } of entries.slice(0, entries.length - MAX_ENTRIES)) rmSync(join(dir, name), { force: true });
}

/**
 * The parse's value as JSON text when JSON gives it back exactly (plain objects and arrays,
 * strings, booleans, null, finite numbers other than -0, no object reached twice, as a YAML
 * alias does), else undefined: not cached.
 */
export function faithfulJson(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null || typeof item === "string" || typeof item === "boolean") continue;
    if (typeof item === "number") {
      if (!Number.isFinite(item) || Object.is(item, -0)) return undefined;
      continue;
    }
    if (typeof item !== "object" || seen.has(item)) return undefined;
    seen.add(item);
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        if (!(i in item)) return undefined;
        pending.push(item[i]);
      }
      continue;
    }
    const prototype = Object.getPrototypeOf(item);
    if (prototype !== Object.prototype && prototype !== null) return undefined;
    for (const key of Object.keys(item)) pending.push((item as Record<string, unknown>)[key]);
  }
  return JSON.stringify(value);
}
