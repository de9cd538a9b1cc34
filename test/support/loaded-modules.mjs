// Preloaded with `node --import`: writes every module the process loaded (ESM by its resolved
// URL, CommonJS by its file) to the file LOADED_MODULES_FILE names, one a line, at exit; a
// CommonJS module an ESM `import` loaded also gets a `commonjs-imported <url>` line.
import { writeFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";
import { MessageChannel } from "node:worker_threads";

const seen = new Set();
const { port1, port2 } = new MessageChannel();
port1.on("message", (url) => seen.add(url));
port1.unref();
register("./loaded-modules-hooks.mjs", import.meta.url, { data: { port: port2 }, transferList: [port2] });
process.on("exit", () => {
  for (const file of Object.keys(createRequire(import.meta.url).cache)) seen.add(pathToFileURL(file).href);
  writeFileSync(process.env.LOADED_MODULES_FILE, [...seen].join("\n"));
});
