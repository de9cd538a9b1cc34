#!/usr/bin/env node
import { evalSimulate } from "./eval-simulate.js";
import { runCliMain } from "./run-main.js";

runCliMain(evalSimulate, process.argv.slice(2)).catch((error: unknown) => {
  console.error(error, "\n");
  process.exit(1);
});
