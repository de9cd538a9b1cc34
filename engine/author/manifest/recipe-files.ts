import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { checkRegularFile, type FileRead, MAX_FILE_BYTES, readRegularFile } from "../../core/files/index.js";

export { MAX_FILE_BYTES };

/** Where a name the manifest gives leads: an absolute path, or why it may not be read. */
export type Located = { ok: true; file: string } | { ok: false; file: string; reason: string };

export interface RecipeFilesOptions {
  /**
   * Read files outside the manifest's folder too (`--allow-outside`). By default
   * `EVAL_SIMULATE_ALLOW_OUTSIDE=1` says so; the file rules (regular files, the size cap) hold
   * either way.
   */
  allowOutside?: boolean;
  /** The size cap of one file; 64 MiB by default. */
  maxBytes?: number;
  /** Whose folder it is, for messages: a manifest's (the default) or an evals file's. */
  owner?: "manifest" | "evals file";
}

/** Whether files outside the Recipe's folder may be read, from the option or the environment. */
export function allowOutsideByDefault(option: boolean | undefined): boolean {
  return option ?? /^(1|true|yes)$/i.test(process.env.EVAL_SIMULATE_ALLOW_OUTSIDE ?? "");
}

function realpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The files a manifest may name: regular files inside its folder (the Recipe's folder and
 * below, symlinks resolved), at most 64 MiB each. A CI step that validates a pull request's
 * manifest must not be made to print the environment (`captured: /proc/self/environ`), fill the
 * memory (`/dev/zero`) or hang on a named pipe.
 *
 * @example
 * const files = new RecipeFiles("/recipe/fakes");
 * files.read("mcp/crm/tools.json"); // { ok: true, file: "/recipe/fakes/mcp/crm/tools.json", text: "..." }
 * files.read("/etc/passwd");        // { ok: false, reason: "is outside the Recipe's folder ..." }
 */
export class RecipeFiles {
  readonly allowOutside: boolean;
  readonly maxBytes: number;
  private readonly root: string;
  private readonly owner: "manifest" | "evals file";

  constructor(
    readonly dir: string,
    options: RecipeFilesOptions = {},
  ) {
    this.allowOutside = allowOutsideByDefault(options.allowOutside);
    this.maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
    this.root = realpath(dir) ?? resolve(dir);
    this.owner = options.owner ?? "manifest";
  }

  /** The absolute path of a name (relative to the manifest's folder), checked without reading it. */
  locate(name: string): Located {
    const file = resolve(this.dir, name);
    const real = realpath(file);
    if (real === undefined) {
      // A missing file is said as such; a dangling symlink's target decides nothing yet.
      const checked = checkRegularFile(file, this.maxBytes);
      return { ok: false, file, reason: checked.ok ? "cannot be read" : checked.reason };
    }
    if (!this.allowOutside && !this.inside(real)) {
      const shown = real === file ? "" : ` (it leads to ${real})`;
      const [folder, rule] =
        this.owner === "manifest" ? ["the Recipe's folder", "a manifest reads files"] : ["the evals file's folder", "an evals file names its fakes"];
      return { ok: false, file, reason: `is outside ${folder} ${this.root}${shown}: ${rule} in its own folder and below (--allow-outside widens that)` };
    }
    const checked = checkRegularFile(real, this.maxBytes);
    return checked.ok ? { ok: true, file } : { ok: false, file, reason: checked.reason };
  }

  /** Reads a name's file as UTF-8 under the same rules. */
  read(name: string): { file: string } & FileRead {
    const located = this.locate(name);
    if (!located.ok) return { ok: false, file: located.file, code: "EREFUSED", reason: located.reason };
    const read = readRegularFile(realpath(located.file) ?? located.file, this.maxBytes);
    return { ...read, file: located.file };
  }

  private inside(real: string): boolean {
    const rel = relative(this.root, real);
    return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
  }
}
