/**
 * Old names kept working: a renamed flag, a command that moved. Each use prints one line on
 * stderr naming the new form, so a script keeps running and its owner sees what to change.
 */
import type { StringArgDef } from "citty";
import { EXIT } from "./exit-codes.js";

/**
 * Writes the one warning line for an old form (`eval-simulate <command>: <old> is deprecated;
 * use <replacement>`).
 *
 * @example warnDeprecated("replay", "--against", "--mcp");
 */
export function warnDeprecated(command: string, old: string, replacement: string): void {
  process.stderr.write(`eval-simulate ${command}: ${old} is deprecated; use ${replacement}\n`);
}

/**
 * The definition of a string flag's old name: listed by `--help` as deprecated (so the help
 * names every flag the command takes, and `refuseUnknownFlags` knows it), with no default.
 *
 * @example const args = { mcp, against: renamedFlag("mcp") };
 */
export function renamedFlag(to: string): StringArgDef {
  return { type: "string", description: `Deprecated: use --${to}` };
}

/** The real server's old flags (observe, replay): `--mcp` and `--mcp-url` name it on every command. */
export const REAL_SERVER_RENAMED = { against: "mcp", "against-url": "mcp-url" } as const;

/**
 * Moves each old name's value to its new name, warning once for each old name given, and refuses
 * the two names at once with different values (a usage error). Returns false when it refused.
 *
 * @example if (!takeRenamed("observe", parsed, { against: "mcp", "against-url": "mcp-url" })) return;
 */
export function takeRenamed(command: string, parsed: Record<string, unknown>, renamed: Readonly<Record<string, string>>): boolean {
  for (const [from, to] of Object.entries(renamed)) {
    const old = parsed[from];
    if (old === undefined) continue;
    if (parsed[to] !== undefined && parsed[to] !== old) {
      process.stderr.write(`eval-simulate ${command}: give --${to} only (--${from} is its old name)\n`);
      process.exitCode = EXIT.usage;
      return false;
    }
    warnDeprecated(command, `--${from}`, `--${to}`);
    parsed[to] = old;
  }
  return true;
}
