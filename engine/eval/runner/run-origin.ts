/**
 * Where and from what a run's trials came, stamped on each results line so lines written on
 * different machines can be merged and told apart: the machine's name, the git commit of the
 * evals file's checkout, the evals file's own hash, and its path relative to that checkout (so
 * `/home/runner/work/app/app/evals.yaml` and `/builds/app/evals.yaml` are the same suite).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

/** What every line of a run carries about its origin. */
export interface RunOrigin {
  hostname: string;
  /** The commit checked out where the evals file lives, when it is in a git checkout. */
  gitSha?: string;
  /** sha256 of the evals file's bytes: lines from two versions of the file do not merge silently. */
  evalsSha256?: string;
  /** The evals file relative to its checkout (else to the working directory), `/`-separated. */
  suite?: string;
}

/** The checkout's commit and top folder, or nothing outside git (or without git installed). */
function gitCheckout(dir: string): { sha: string; top: string } | undefined {
  try {
    const [sha, top] = execFileSync("git", ["-C", dir, "rev-parse", "HEAD", "--show-toplevel"], { stdio: ["ignore", "pipe", "ignore"], timeout: 10_000 })
      .toString()
      .trim()
      .split("\n");
    return sha && top ? { sha, top } : undefined;
  } catch {
    return undefined;
  }
}

const safeRealpath = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** `path` below `base` as a relative, `/`-separated path; undefined when it is not below it. */
function below(base: string, path: string): string | undefined {
  const rel = relative(base, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel.split(sep).join("/") : undefined;
}

/**
 * The origin of a run of `file` (an evals file; undefined for a document given already loaded).
 *
 * @example runOrigin("examples/crm/evals.yaml") // { hostname: "ci-7", gitSha: "4f0c…", evalsSha256: "9a1e…", suite: "examples/crm/evals.yaml" }
 */
export function runOrigin(file: string | undefined, cwd = process.cwd()): RunOrigin {
  if (file === undefined) return { hostname: hostname() };
  // git names its top folder with symbolic links resolved.
  const path = safeRealpath(resolve(cwd, file));
  const git = gitCheckout(dirname(path));
  let evalsSha256: string | undefined;
  try {
    evalsSha256 = createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    // The file was read to load the run; a race that removed it since leaves the hash out.
  }
  const suite = (git && below(git.top, path)) ?? below(cwd, path) ?? below(safeRealpath(cwd), path) ?? path.split(sep).join("/");
  return { hostname: hostname(), ...(git ? { gitSha: git.sha } : {}), ...(evalsSha256 ? { evalsSha256 } : {}), suite };
}
