/** The parent when the engine's modules loaded: as early as the process can know it. */
const STARTING_PARENT = process.ppid;

/**
 * Calls `onOrphaned` once this process loses the parent it started with.
 *
 * `npx eval-simulate serve` runs the server as npm's grandchild, through `sh -c`: a SIGTERM sent
 * to npx ends npm, and the shell passes nothing on, so the server would run on orphaned (its state
 * file never flushed, a container waiting out its kill timeout). Node reads `process.ppid` afresh
 * on every access, so a change means the parent is gone and the process was adopted by init or a
 * subreaper. Only processes npm started are watched: a server started in the background of a
 * script that then ends must keep running. The parent is the one this module was first loaded
 * under, not the one at the call: a kill of npx while the server was still starting (compiling
 * the fakes, building worlds) would otherwise leave it watching init.
 *
 * @example watchParent(() => services.close().then(() => process.exit(0)));
 */
export function watchParent(onOrphaned: () => void, options: { env?: NodeJS.ProcessEnv; everyMs?: number; parent?: number } = {}): () => void {
  const env = options.env ?? process.env;
  if (env.npm_command === undefined && env.npm_lifecycle_event === undefined) return () => {};
  const parent = options.parent ?? STARTING_PARENT;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, options.everyMs ?? 250);
  // Never what keeps the process alive.
  timer.unref();
  return () => clearInterval(timer);
}
