import { join } from "node:path";
import { type Fakes, fakeKind } from "../../author/fakes/index.js";
import { writeJsonAtomic } from "./state-files.js";

/**
 * Writes `mcp/<id>/manifest.json` and `mcp/<id>/answers.json` for every MCP fake (`api/<id>/manifest.json` for an API fake), so checks that
 * do not run TypeScript (a judge, a verifier in another language) can read the entity maps and
 * check answers as `readResult` does.
 *
 * @example writeManifestDir("/run/manifests", fakes);
 */
export function writeManifestDir(dir: string, fakes: Fakes): void {
  for (const [id, fake] of Object.entries(fakes)) {
    for (const [name, value] of Object.entries(fakeKind(fake).manifestFiles(fake))) writeJsonAtomic(join(dir, fake.kind, id, name), value);
  }
}
