import { join } from "node:path";
import type { ApiManifest, ServerManifest } from "../../author/model/index.js";
import type { Fakes } from "../../author/fakes/index.js";
import { writeJsonAtomic } from "./state-files.js";

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

/**
 * Writes `mcp/<id>/manifest.json` and `mcp/<id>/answers.json` for every MCP fake (`api/<id>/manifest.json` for an API fake), so checks that
 * do not run TypeScript (a judge, a verifier in another language) can read the entity maps and
 * check answers as `readResult` does.
 *
 * @example writeManifestDir("/run/manifests", fakes);
 */
export function writeManifestDir(dir: string, fakes: Fakes): void {
  for (const [id, fake] of Object.entries(fakes)) {
    if (fake.kind === "api") {
      writeJsonAtomic(join(dir, "api", id, "manifest.json"), apiManifestJson(fake.manifest));
      continue;
    }
    writeJsonAtomic(join(dir, "mcp", id, "manifest.json"), serverManifestJson(fake.manifest));
    writeJsonAtomic(join(dir, "mcp", id, "answers.json"), serverAnswersJson(fake.manifest));
  }
}
