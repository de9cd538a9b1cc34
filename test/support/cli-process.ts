import { type ChildProcess, spawn } from "node:child_process";
import { ROOT } from "./examples.js";

/** The built CLI, as `npx eval-simulate` runs it. */
export const CLI = `${ROOT}dist/cli/main.js`;

/** Runs the CLI to completion and returns its exit code and output. */
export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env: { ...process.env, NO_COLOR: "1", ...options.env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A running `eval-simulate serve` and the port it printed. */
export interface ServeProcess {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  exited: Promise<number | null>;
}

/** Starts `eval-simulate serve` on a free loopback port and waits for its start-up line. */
export function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--host", "127.0.0.1", ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1", ...env },
    });
    let stdout = "";
    let stderr = "";
    const exited = new Promise<number | null>((done) => child.on("close", done));
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stdout}${stderr}`)), 20_000);
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.on("data", (d) => {
      stdout += d;
      const port = /at http:\/\/[^:]+:(\d+)/.exec(stdout)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, port: Number(port), stdout: () => stdout, exited });
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code} before starting: ${stdout}${stderr}`));
    });
  });
}
