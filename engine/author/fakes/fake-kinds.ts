/**
 * The kinds of fake, and what the author layer knows of each: an MCP fake, an API fake served
 * from its OpenAPI document, and one of emulate's built-in services (an API fake whose state and
 * operations are emulate's own). Each layer keeps its own registry keyed by the same names
 * (serving: how a kind is mounted; judging: how a golden call is replayed on it), so a new kind
 * is one entry per layer rather than a branch in every file that meets a fake.
 */
import type { WriteMap } from "../../core/record/index.js";
import type { ApiManifest, EntityManifest, ServerManifest } from "../model/index.js";
import type { ApiFake, Fake, McpFake } from "./served-fake.js";

/** The kinds of fake, by name. */
export type FakeKindName = "mcp" | "api" | "emulate";

/** What differs between kinds of fake as the author layer knows them; every layer above reads it. */
export interface FakeKind<F extends Fake = Fake> {
  readonly name: FakeKindName;
  /**
   * The entities a world's state for this fake is checked against (a resumed state, a world
   * module's), or `undefined` when the world only seeds it: an emulate built-in keeps a state
   * of its own, shaped as emulate likes.
   */
  entities(fake: F): readonly EntityManifest[] | undefined;
  /** What a verifier reads of it without TypeScript: its identity, entities and entity map. */
  writeMap(fake: F): WriteMap;
  /**
   * The files it leaves in a manifest dir (`--manifest-dir`), by name, below `<fake.kind>/<id>/`:
   * `manifest.json` (its write map) for every kind, and `answers.json` for an MCP fake.
   */
  manifestFiles(fake: F): Record<string, unknown>;
}

/** What a verifier reads of an MCP fake without TypeScript: its identity and entity map. */
export function serverManifestJson(server: ServerManifest) {
  return {
    id: server.id,
    kind: "mcp" as const,
    ...(server.description ? { description: server.description } : {}),
    entities: server.entities.map((e) => e.name),
    tools: Object.fromEntries(server.tools.map((t) => [t.name, { kind: t.kind, reads: t.reads, writes: t.writes }])),
  };
}

/** Each tool's answer (format, prefix, suffix, schema; `structured` for an outputSchema), by name. */
export function serverAnswersJson(server: ServerManifest) {
  return Object.fromEntries(server.tools.map((t) => [t.name, t.answer]));
}

/** What a verifier reads of an API fake: its entity map, each operation with its method and path. */
export function apiManifestJson(api: ApiManifest) {
  return {
    id: api.id,
    kind: "api" as const,
    ...(api.description ? { description: api.description } : {}),
    ...(api.emulate ? { emulate: api.emulate } : {}),
    entities: api.entities.map((e) => e.name),
    operations: Object.fromEntries(api.operations.map((op) => [op.name, { method: op.method, path: op.pathTemplate, reads: op.reads, writes: op.writes }])),
  };
}

const mcpKind: FakeKind<McpFake> = {
  name: "mcp",
  entities: (fake) => fake.manifest.entities,
  writeMap: (fake) => serverManifestJson(fake.manifest),
  manifestFiles: (fake) => ({ "manifest.json": serverManifestJson(fake.manifest), "answers.json": serverAnswersJson(fake.manifest) }),
};

const apiKind: FakeKind<ApiFake> = {
  name: "api",
  entities: (fake) => fake.manifest.entities,
  writeMap: (fake) => apiManifestJson(fake.manifest),
  manifestFiles: (fake) => ({ "manifest.json": apiManifestJson(fake.manifest) }),
};

const emulateKind: FakeKind<ApiFake> = {
  ...apiKind,
  name: "emulate",
  entities: () => undefined,
};

/** Every kind, by name. Each entry's methods take fakes of that kind: look one up with `fakeKind(fake)`. */
export const FAKE_KINDS: Readonly<Record<FakeKindName, FakeKind>> = { mcp: mcpKind, api: apiKind, emulate: emulateKind };

/**
 * The name of a fake's kind: `emulate` for an API fake that names one of emulate's services.
 *
 * @example kindName(fakes.google) // "emulate"
 */
export function kindName(fake: Fake): FakeKindName {
  if (fake.kind === "mcp") return "mcp";
  return fake.manifest.emulate ? "emulate" : "api";
}

/**
 * A fake's kind. Its methods take that fake: `fakeKind(fake).writeMap(fake)`.
 *
 * @example fakeKind(fakes.crm).entities(fakes.crm)?.map((e) => e.name) // ["companies", "notes"]
 */
export function fakeKind(fake: Fake): FakeKind {
  return FAKE_KINDS[kindName(fake)];
}
