import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The project's root folder. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Every example under examples/ as [name, absolute path of its fakes.yaml]. */
export function examples(): Array<[string, string]> {
  const dir = `${ROOT}examples`;
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${dir}/${entry.name}/fakes.yaml`))
    .map((entry) => [entry.name, `${dir}/${entry.name}/fakes.yaml`]);
}

/** The fakes.yaml of the example of this name. */
export const exampleManifest = (name: string): string => `${ROOT}examples/${name}/fakes.yaml`;
