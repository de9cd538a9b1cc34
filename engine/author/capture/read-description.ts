import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { parse } from "yaml";

/**
 * A published OpenAPI description, JSON or YAML, from a URL or a file. Large descriptions
 * (GitHub's is 13 MB) are parsed once per capture.
 *
 * @example const document = await readDescription("https://…/openapi.yaml");
 */
export async function readDescription(source: string, from = process.cwd()): Promise<Record<string, unknown>> {
  let text: string;
  const packaged = packagedFile(source, from);
  if (packaged) source = packaged;
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`[eval-simulate] ${source} answered ${response.status} ${response.statusText}`);
    text = await response.text();
  } else {
    text = await readFile(source, "utf8").catch((error: NodeJS.ErrnoException) => {
      throw new Error(`[eval-simulate] cannot read ${source}: ${error.code ?? error.message}`);
    });
  }
  const trimmed = text.trimStart();
  const document = trimmed.startsWith("{") ? JSON.parse(text) : parse(text, { maxAliasCount: -1 });
  if (!document || typeof document !== "object" || !/^3\.[01]\./.test(String(document.openapi ?? ""))) {
    throw new Error(`[eval-simulate] ${source} is not an OpenAPI 3.0 or 3.1 description`);
  }
  return document as Record<string, unknown>;
}

/**
 * A source written `npm:<package>@<version>/<path>` (such as GitHub's description in
 * `@octokit/openapi`) read from an installed copy of that package, found from `from`. Such
 * packages are too large to be every install's dependency: install one for the capture only.
 */
function packagedFile(source: string, from: string): string | undefined {
  const match = /^npm:((?:@[^/]+\/)?[^@/]+)@([^/]+)\/(.+)$/.exec(source);
  if (!match) return undefined;
  const [, name, version, path] = match;
  let manifest: string;
  try {
    manifest = createRequire(join(from, "noop.js")).resolve(`${name}/package.json`);
  } catch {
    throw new Error(`[eval-simulate] ${source} needs ${name}@${version} installed: npm install --no-save ${name}@${version}`);
  }
  const installed = JSON.parse(readFileSync(manifest, "utf8")).version as string;
  if (installed !== version) throw new Error(`[eval-simulate] ${source} needs ${name}@${version}; ${installed} is installed`);
  return join(dirname(manifest), path);
}
