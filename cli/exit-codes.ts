import type { ArgsDef } from "citty";

/** The exit codes every command uses, as docs/cli.md documents them. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

/**
 * citty accepts unknown flags silently; a typo such as `--formt json` would then be ignored.
 * Refuses them with a usage error (exit 2). Returns false when it refused.
 */
export function refuseUnknownFlags(rawArgs: string[], args: ArgsDef): boolean {
  const known = new Set<string>(["help", "h"]);
  for (const [name, def] of Object.entries(args)) {
    known.add(name);
    known.add(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
    known.add(name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));
    for (const alias of [def.type === "positional" ? [] : ((def as { alias?: string | string[] }).alias ?? [])].flat()) known.add(alias);
  }
  for (const raw of rawArgs) {
    if (raw === "--") break;
    const match = /^--?(?:no-)?([^=]+)/.exec(raw);
    if (match && !/^-\d/.test(raw) && !known.has(match[1])) {
      process.stderr.write(`eval-simulate: unknown option ${raw.split("=")[0]} (see --help)\n`);
      process.exitCode = EXIT.usage;
      return false;
    }
  }
  return true;
}

/** Reads a `--clock` flag, or says why it cannot (a usage error). Undefined means "now". */
export function clockFlag(value: string | undefined): { ok: true; clock?: string } | { ok: false } {
  if (value === undefined) return { ok: true };
  if (Number.isNaN(Date.parse(value)) && !/^\d+$/.test(value) && value !== "now") {
    process.stderr.write(`eval-simulate: --clock takes an ISO 8601 time (2026-10-01T09:00:00Z), not "${value}"\n`);
    process.exitCode = EXIT.usage;
    return { ok: false };
  }
  return { ok: true, clock: value };
}
