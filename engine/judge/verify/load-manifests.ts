/**
 * Reading every fake's write map: from the folder `serve --manifest-dir` writes, or derived from
 * the `fakes.yaml` the fakes were served from.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { manifestsFromYaml } from "./manifests-from-yaml.js";
import { normalizeManifest } from "./normalize-manifest.js";
import { readRegularFile } from "../../core/files/index.js";
import type { WriteMaps } from "../../core/record/index.js";

const KINDS = ["mcp", "api"] as const;

/**
 * Every fake's write map by fake id. `path` is a manifest dir (`<path>/mcp/<id>/manifest.json`,
 * `<path>/api/<id>/manifest.json`), a folder of fake folders (`<path>/<id>/manifest.json`, such
 * as a Recipe's `fakes/mcp`), or a `fakes.yaml`. Throws when there is nothing there, or no
 * manifest, since checks over no fakes would report nothing.
 *
 * @example
 * const manifests = loadManifests("/logs/manifests");  // { crm: { id: "crm", kind: "mcp", entities, tools } }
 * const same = loadManifests("fakes/fakes.yaml");
 */
export function loadManifests(path: string): WriteMaps {
  if (!existsSync(path)) throw new Error(`[eval-simulate] cannot load manifests: ${path} does not exist`);
  const manifests = statSync(path).isDirectory() ? manifestsInDirectory(path) : manifestsFromYaml(path);
  if (Object.keys(manifests).length === 0) {
    throw new Error(`[eval-simulate] ${path} holds no manifest: expected mcp/<id>/manifest.json or api/<id>/manifest.json (serve --manifest-dir writes them)`);
  }
  return manifests;
}

function manifestsInDirectory(dir: string): WriteMaps {
  const byKind = KINDS.filter((kind) => isDirectory(join(dir, kind)));
  const folders =
    byKind.length > 0
      ? byKind.flatMap((kind) => fakeFolders(join(dir, kind)).map((id) => ({ id, kind, folder: join(dir, kind, id) })))
      : fakeFolders(dir).map((id) => ({ id, kind: undefined, folder: join(dir, id) }));
  const manifests: WriteMaps = {};
  for (const { id, kind, folder } of folders) {
    const file = join(folder, "manifest.json");
    if (manifests[id]) throw new Error(`[eval-simulate] ${dir} holds two manifests for "${id}" (an id names one fake)`);
    manifests[id] = normalizeManifest(readJson(file), id, kind, file);
  }
  return manifests;
}

/** The subfolders of `dir` that hold a manifest.json, sorted so results do not depend on the file system. */
function fakeFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "manifest.json")))
    .map((entry) => entry.name)
    .sort();
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function readJson(file: string): unknown {
  const read = readRegularFile(file);
  if (!read.ok) throw new Error(`[eval-simulate] cannot read the manifest ${file}: it ${read.reason}`);
  try {
    return JSON.parse(read.text);
  } catch (error) {
    throw new Error(`[eval-simulate] cannot read the manifest ${file}: ${(error as Error).message}`, { cause: error });
  }
}
