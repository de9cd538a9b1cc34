import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The project's root folder. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A server in its own process, so the load client does not share its event loop. */
export interface Subject {
  label: string;
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts `node args…` and waits until it prints `listening on <port>` or the serve command's
 * start-up line; loopback only.
 */
export function startSubject(label: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Subject> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${label} did not start: ${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk;
      const port = /listening on (?:http:\/\/[^:\s]+:)?(\d+)/.exec(out)?.[1] ?? /at http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (!port) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      resolve({
        label,
        child,
        port: Number(port),
        stop: () =>
          new Promise((done) => {
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk) => (out += chunk));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited ${code}: ${out}`));
    });
  });
}

/** Prints a table of rows (first row is the header), columns padded. */
export function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ")).join("\n");
}
