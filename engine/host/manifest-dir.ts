import { join } from "node:path";
import type { ServerManifest } from "../manifest/types.js";
import type { Fakes } from "./fakes.js";
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

/**
 * Writes `mcp/<id>/manifest.json` and `mcp/<id>/answers.json` for every MCP fake, so checks that
 * do not run TypeScript (a judge, a verifier in another language) can read the entity maps and
 * check answers as `readResult` does.
 *
 * @example writeManifestDir("/run/manifests", fakes);
 */
export function writeManifestDir(dir: string, fakes: Fakes): void {
  for (const [id, fake] of Object.entries(fakes)) {
    writeJsonAtomic(join(dir, "mcp", id, "manifest.json"), serverManifestJson(fake.manifest));
    writeJsonAtomic(join(dir, "mcp", id, "answers.json"), serverAnswersJson(fake.manifest));
  }
}
