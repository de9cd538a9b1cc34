/**
 * The manifest is given the same way to every command that reads one: as a positional, after the
 * command's own subject if it has one (`serve [fakes.yaml]`, `capture <id> [fakes.yaml]`,
 * `replay <calls> [fakes.yaml]`), or as `--manifest <file>`, which every such command accepts too.
 */
import { EXIT } from "./exit-codes.js";

/**
 * The two spellings' definitions. The positional is keyed in capitals (help prints it so anyway)
 * and read from `_` by {@link manifestOf}: citty's parsed args answer a lower-case name with the
 * flag, so the two keys must differ.
 *
 * @example const args = { id: { type: "positional", required: true }, ...manifestArgs("The manifest that records the capture") };
 */
export function manifestArgs(description: string, fallback = "default ./fakes.yaml") {
  return {
    MANIFEST: { type: "positional", required: false, description: `${description} (or --manifest; ${fallback})`, valueHint: "fakes.yaml" },
    manifest: { type: "string", description: "The manifest, as a flag instead of the positional", valueHint: "fakes.yaml" },
  } as const;
}

/**
 * The manifest a command was given: its positional at `position` (0 when the manifest is the
 * command's first word), else `--manifest`, else `fallback`. Both given, different, or `--manifest`
 * without a file, is a usage error: written, and undefined returned.
 *
 * @example const manifest = manifestOf("capture", parsed, 1); if (manifest === undefined) return;
 */
export function manifestOf(command: string, parsed: { _: string[]; manifest?: string }, position: number, fallback = "fakes.yaml"): string | undefined {
  const positional = parsed._[position];
  const flag = parsed.manifest;
  const refusal =
    flag === ""
      ? "--manifest takes a file"
      : positional !== undefined && flag !== undefined && positional !== flag
        ? `give the manifest once: ${positional} or --manifest ${flag}`
        : undefined;
  if (refusal !== undefined) {
    process.stderr.write(`eval-simulate ${command}: ${refusal}\n`);
    process.exitCode = EXIT.usage;
    return undefined;
  }
  return positional ?? flag ?? fallback;
}
