import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
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

/**
 * Nanoseconds a process's threads have run on a CPU so far (Linux: the sum of each thread's
 * `/proc/<pid>/task/<tid>/schedstat`), or undefined elsewhere. The CPU a server spends per call
 * is what a loaded machine changes least: wall-clock rates there mostly measure the other work.
 */
export function cpuNanoseconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    let total = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // A thread that ended between the listing and the read ran nothing more.
      }
    }
    return total;
  } catch {
    return undefined;
  }
}
