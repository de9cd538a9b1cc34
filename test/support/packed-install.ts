/**
 * The package as a user gets it: `npm pack` of this checkout, installed with a plain `npm install
 * <tarball>` (no optional peer added by hand) into an empty project of its own in a fresh temp
 * folder. dist/ is packed as the process project's global set-up built it (no prepare: rebuilding
 * it here would change files other tests are running). Nothing is left in the temp folder's
 * parent: the project's package.json is inside the folder `remove()` deletes.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./examples.js";

/** A packed, installed copy of the package and the folder holding it. */
export interface PackedInstall {
  /** The temp folder: the tarball, and `app/` below it. */
  work: string;
  /** The project the tarball is installed in (`"type": "module"`, its own package.json). */
  app: string;
  /** The tarball's path. */
  tarball: string;
  /** The installed package's folder, `app/node_modules/eval-simulate`. */
  installed: string;
  /** Deletes the temp folder and everything in it. */
  remove(): void;
}

/** Packs this checkout into a fresh temp folder, without installing it anywhere. */
export function packTarball(work: string): string {
  const name = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], { cwd: ROOT, encoding: "utf8" })
    .trim()
    .split("\n")
    .at(-1)!;
  return join(work, name);
}

/**
 * Packs the package and installs the tarball into an empty ES-module project, as the README's
 * set-up says. `omitDev` installs as the sidecar image does (`--omit=dev`).
 *
 * @example const pack = packedInstall(); try { … } finally { pack.remove(); }
 */
export function packedInstall(options: { omitDev?: boolean } = {}): PackedInstall {
  const work = mkdtempSync(join(tmpdir(), "eval-simulate-packed-"));
  try {
    const tarball = packTarball(work);
    const app = join(work, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), `${JSON.stringify({ name: "packed-app", private: true, type: "module" }, null, 2)}\n`);
    const flags = ["--no-audit", "--no-fund", "--prefer-offline", ...(options.omitDev ? ["--omit=dev"] : [])];
    execFileSync("npm", ["install", ...flags, tarball], { cwd: app, stdio: "ignore" });
    return { work, app, tarball, installed: join(app, "node_modules/eval-simulate"), remove: () => rmSync(work, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}

/** What a finished process printed and how it ended. */
export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (a minute at most), in `cwd`, without colours. */
export function runIn(cwd: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, timeout: 60_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
