/**
 * A fresh real server for every replay: `{{tmp}}` in the server's command (its words, its
 * `NAME=value` settings, its folder) and in the reset command becomes a new empty folder, made
 * before the replay and removed after it; the reset command, when given, runs before the server
 * starts. A server that keeps state on disk then answers the same calls the same way every time.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { McpServerTarget } from "../../author/capture/index.js";

/** The placeholder for the replay's own fresh folder. */
export const TMP_PLACEHOLDER = "{{tmp}}";

/** How long a reset command may run before it is stopped and the replay refused. */
export const RESET_TIMEOUT_MS = 60_000;

/** How long a reset command's output is read after it exits, when a process it started still holds it. */
const EXIT_GRACE_MS = 1000;

/** The most of a reset command's output kept to say why it failed. */
const OUTPUT_CAP = 4096;

const fill = (text: string, dir: string) => text.split(TMP_PLACEHOLDER).join(dir);
const mentions = (target: McpServerTarget, reset?: string) =>
  (reset ?? "").includes(TMP_PLACEHOLDER) ||
  ("command" in target
    ? [...target.command, ...Object.values(target.env ?? {}), target.cwd ?? ""].some((w) => w.includes(TMP_PLACEHOLDER))
    : target.url.includes(TMP_PLACEHOLDER));

/** The target with `{{tmp}}` filled in. */
function filled(target: McpServerTarget, dir: string): McpServerTarget {
  if (!("command" in target)) return { ...target, url: fill(target.url, dir) };
  return {
    ...target,
    command: target.command.map((w) => fill(w, dir)),
    ...(target.env && { env: Object.fromEntries(Object.entries(target.env).map(([k, v]) => [k, fill(v, dir)])) }),
    ...(target.cwd !== undefined && { cwd: fill(target.cwd, dir) }),
  };
}

/** Runs a reset command through `sh -c`, bounded in time; throws with its exit and the end of its output when it fails. */
function runReset(command: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command], { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-OUTPUT_CAP);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => child.kill("SIGKILL"), RESET_TIMEOUT_MS);
    let grace: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      // A process the command left running (a server started with `&`) may hold the pipes: let go of them.
      child.stdout.destroy();
      child.stderr.destroy();
      done();
    };
    child.on("error", (error) =>
      settle(() => reject(new Error(`[eval-simulate] the reset command ${JSON.stringify(command)} did not start: ${error.message}`))),
    );
    const ended = (code: number | null, signal: NodeJS.Signals | null) =>
      settle(() => {
        if (code === 0) return resolve();
        const how = signal ? `was stopped (${signal}${signal === "SIGKILL" ? `, past ${RESET_TIMEOUT_MS / 1000} s` : ""})` : `exited ${code}`;
        reject(new Error(`[eval-simulate] the reset command ${JSON.stringify(command)} ${how}${output.trim() ? `: ${output.trim()}` : ""}`));
      });
    // Its output is read to the end, unless something it started still holds the pipes: then
    // what arrived within EXIT_GRACE_MS of its exit is all there is ('close' would wait for that process).
    child.on("exit", (code, signal) => (grace = setTimeout(() => ended(code, signal), EXIT_GRACE_MS)));
    child.on("close", ended);
  });
}

/**
 * Runs `replay` on a fresh real server: `{{tmp}}` filled with a new folder (removed after, even
 * when the replay fails), the reset command run first (with `{{tmp}}` filled too, and the folder
 * in `EVAL_SIMULATE_TMP`).
 *
 * @example await onFreshTarget({ command: ["npx", "server-memory"], env: { MEMORY_FILE_PATH: "{{tmp}}/memory.jsonl" } }, undefined, (t) => replayOn(t));
 */
export async function onFreshTarget<T>(target: McpServerTarget, reset: string | undefined, replay: (target: McpServerTarget) => Promise<T>): Promise<T> {
  const dir = mentions(target, reset) ? mkdtempSync(join(tmpdir(), "eval-simulate-fresh-")) : undefined;
  try {
    if (reset !== undefined) await runReset(dir ? fill(reset, dir) : reset, { ...process.env, ...(dir && { EVAL_SIMULATE_TMP: dir }) });
    return await replay(dir ? filled(target, dir) : target);
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
