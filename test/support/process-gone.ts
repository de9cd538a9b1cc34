import { existsSync, readFileSync } from "node:fs";

/**
 * Whether a process is gone: `process.kill(pid, 0)` fails, or it is a zombie (dead, waiting for a
 * reaper: a sandbox's init may never reap the orphans a killed agent leaves, and a zombie still
 * answers signal 0).
 */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  // The state follows the command name in parentheses, which may itself hold spaces.
  const text = readFileSync(stat, "utf8");
  return text.slice(text.lastIndexOf(")") + 2).startsWith("Z");
}

/** Waits until `check` holds, polling; throws after `limitMs` so a test fails instead of hanging. */
export async function eventually(check: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`still waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The pid an agent wrote to a file, once it has. */
export async function pidFrom(file: string): Promise<number> {
  await eventually(() => existsSync(file) && /^\d+\n$/.test(readFileSync(file, "utf8")), `a pid in ${file}`);
  return Number(readFileSync(file, "utf8"));
}
