/**
 * The unit project's setup file. A unit test runs in vitest's own process without sockets, so
 * one that starts a process or listens on a port fails here, saying which project it belongs in,
 * instead of passing on a machine where that happens to work (test/README.md).
 */
import { createRequire, syncBuiltinESMExports } from "node:module";
import { Server } from "node:net";

const require = createRequire(import.meta.url);
const childProcess = require("node:child_process") as Record<string, unknown>;
const misplaced = (what: string) => () => {
  throw new Error(`[test] a unit test ${what}: move it to the process project (PROCESS in vitest.config.ts, see test/README.md)`);
};

for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"])
  childProcess[name] = misplaced(`started a process (child_process.${name})`);
// The ESM bindings (`import { spawn } from "node:child_process"`) follow the patched CommonJS object.
syncBuiltinESMExports();
// http.Server and every HTTP framework's server listen through net.Server.
Server.prototype.listen = misplaced("listened on a port (net.Server.listen)") as typeof Server.prototype.listen;
