/**
 * Paths a command line names: a file, a folder (every file below it with a given ending), or a
 * quoted glob (`results/*.ndjson`, `shards/**\/*.ndjson`: `*` and `?` within a name, `**` for any
 * folders), expanded here since Node 20 has no glob of its own and a CI step's quoting reaches
 * us unexpanded. Symbolic links to folders are not walked (no loops), and a walk stops at a
 * bounded number of entries, so a pattern cannot hold a command for ever.
 */
import { type Dirent, readdirSync, statSync } from "node:fs";
import { isAbsolute, join, resolve, sep } from "node:path";

/** The most folder entries one expansion reads. */
export const MAX_GLOB_ENTRIES = 100_000;

const GLOB_CHARS = /[*?]/;

/** A name pattern's regular expression: `*` any run of characters, `?` one; the rest literal. */
const nameRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
  );

function entries(dir: string, budget: { left: number }): Dirent[] {
  let list: Dirent[];
  try {
    list = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  budget.left -= list.length;
  if (budget.left < 0) throw new Error(`[eval-simulate] a path pattern reads more than ${MAX_GLOB_ENTRIES} folder entries: name the files more narrowly`);
  return list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Every regular file below `dir` (folders walked, symbolic links to folders not) passing `keep`. */
function walk(dir: string, keep: (name: string) => boolean, budget: { left: number }, out: string[]): void {
  for (const entry of entries(dir, budget)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, keep, budget, out);
    else if (keep(entry.name) && isFile(path)) out.push(path);
  }
}

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

const isDirectory = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The paths matching a glob's segments from `base`. */
function match(base: string, segments: readonly string[], budget: { left: number }, out: Set<string>): void {
  if (segments.length === 0) {
    if (isFile(base)) out.add(base);
    return;
  }
  const [head, ...rest] = segments;
  if (head === "**") {
    match(base, rest, budget, out);
    for (const entry of entries(base, budget)) if (entry.isDirectory()) match(join(base, entry.name), segments, budget, out);
    return;
  }
  if (!GLOB_CHARS.test(head!)) return match(join(base, head!), rest, budget, out);
  const re = nameRegExp(head!);
  for (const entry of entries(base, budget))
    if (re.test(entry.name) && entry.name.startsWith(".") === head!.startsWith(".")) match(join(base, entry.name), rest, budget, out);
}

/**
 * The files one argument names, sorted: the file itself, every file ending in `ending` below a
 * folder, or a glob's matches (names starting with a dot only when the pattern's does). Empty
 * when nothing matches.
 *
 * @example expandPaths("shards/*.ndjson", ".ndjson") // ["shards/1.ndjson", "shards/2.ndjson"]
 */
export function expandPaths(argument: string, ending: string, cwd = process.cwd()): string[] {
  const budget = { left: MAX_GLOB_ENTRIES };
  if (!GLOB_CHARS.test(argument)) {
    const path = resolve(cwd, argument);
    if (isDirectory(path)) {
      const out: string[] = [];
      walk(path, (name) => name.endsWith(ending), budget, out);
      return out;
    }
    return isFile(path) ? [path] : [];
  }
  const normalized = argument.split(sep).join("/");
  const absolute = isAbsolute(normalized);
  const segments = normalized.split("/").filter((s, i) => s !== "" && !(s === "." && i === 0));
  const out = new Set<string>();
  match(absolute ? resolve("/") : resolve(cwd), segments, budget, out);
  return [...out].sort();
}
