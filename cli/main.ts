#!/usr/bin/env node
import { evalSimulate } from "./eval-simulate.js";
import { runCliMain } from "./run-main.js";

// A reader that stopped early (`eval-simulate schema | head`, or `2>&1 | head`) is not the
// command's failure: what it would still print is dropped, and the command ends with its own exit
// code, not a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

runCliMain(evalSimulate, process.argv.slice(2)).catch((error: unknown) => {
  console.error(error, "\n");
  process.exit(1);
});
