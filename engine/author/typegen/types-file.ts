import { readRegularFile } from "../../core/files/index.js";
import type { Manifest } from "../model/index.js";
import { typeModel } from "./type-model.js";

/** The header line that carries the hash of what a generated file was made from. */
const HASH_LINE = /^\/\/ eval-simulate-types: ([0-9a-f]{64})$/m;

/**
 * Where `eval-simulate types` writes by default: beside the manifest, `fakes.yaml` → `fakes.d.ts`,
 * so a handler module imports its types from `"../../fakes.js"`.
 *
 * @example defaultTypesFile("/r/fakes.yaml"); // "/r/fakes.d.ts"
 */
export function defaultTypesFile(manifestFile: string): string {
  return `${manifestFile.replace(/\.(?:ya?ml|json)$/i, "")}.d.ts`;
}

/**
 * Whether a generated types file was made from this manifest as it is now (compared by the hash
 * in its header, without running the generator): undefined when there is no such file.
 *
 * @example if (typesStale(manifest, "fakes.d.ts")) console.warn("run eval-simulate types");
 */
export function typesStale(manifest: Manifest, file: string): boolean | undefined {
  // Read as every file beside a manifest is: never a FIFO or a device, never past the size cap.
  const read = readRegularFile(file, 16 * 1024 * 1024);
  if (!read.ok) return undefined;
  const recorded = HASH_LINE.exec(read.text.slice(0, 4096))?.[1];
  if (recorded === undefined) return undefined;
  return recorded !== typeModel(manifest).hash;
}
