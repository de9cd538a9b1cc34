/**
 * An agent command's process group: the command is started as the leader of a group of its own,
 * so stopping it reaches every process it started (a shell's background jobs, an agent's tool
 * servers), not only the direct child. Groups still alive when the runner's process ends are
 * killed on the way out, whether it exits or dies of a signal nobody else handles.
 */
import type { ChildProcess } from "node:child_process";

/** How long a group has between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;

const live = new Set<ChildProcess>();
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Sends `signal` to every process of the group `child` leads (its pid is the group's id); a group
 * already gone is no error. Windows has no process groups: there only the child is signalled.
 */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (process.platform === "win32") child.kill(signal);
    else process.kill(-child.pid!, signal);
  } catch {
    // ESRCH: every process of the group has exited.
  }
}

const killAll = () => {
  for (const child of live) signalGroup(child, "SIGKILL");
  live.clear();
};

/**
 * Our listener is the only one for this signal: the process would have died of it, so the groups
 * die with it, and the signal is raised again to end the process as it would have ended. When
 * another listener (the CLI's interrupt) handles the signal, the run's abort stops the groups.
 */
function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  killAll();
  unwatch();
  process.kill(process.pid, signal);
}

function watch(): void {
  process.on("exit", killAll);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function unwatch(): void {
  process.off("exit", killAll);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

/** A started group, and how to stop it. */
export interface ProcessGroup {
  /**
   * SIGTERM to the whole group now and SIGKILL after `KILL_GRACE_MS` (whether or not the leader
   * has exited: a child that ignores SIGTERM outlives it). Calling it again does nothing more.
   */
  stop(): void;
}

/**
 * Tracks `child` (spawned with `detached: true`, so its pid is its group's id) until `stop`'s
 * SIGKILL has been sent.
 *
 * @example const group = processGroup(spawn(cmd, args, { detached: true })); group.stop();
 */
export function processGroup(child: ChildProcess): ProcessGroup {
  // It never started (the 'error' event says why): there is nothing to stop.
  if (child.pid === undefined) return { stop: () => undefined };
  if (live.size === 0) watch();
  live.add(child);
  let stopping = false;
  return {
    stop() {
      if (stopping) return;
      stopping = true;
      signalGroup(child, "SIGTERM");
      setTimeout(() => {
        // Sent only while tracked: once every group has been killed on the way out, the id may
        // already be someone else's.
        if (!live.delete(child)) return;
        signalGroup(child, "SIGKILL");
        if (live.size === 0) unwatch();
      }, KILL_GRACE_MS).unref();
    },
  };
}
