// Preloaded with `node --import`: writes every module the process loaded (ESM by its resolved
// URL, CommonJS by its file) to the file LOADED_MODULES_FILE names, one a line, at exit; a
// CommonJS module an ESM `import` loaded also gets a `commonjs-imported <url>` line. A file of
// the package's bundle (scripts/bundle.mjs) stands for the modules it holds, as
// dist/bundle-inputs.json lists them: a line for each, by the URL it has outside the bundle
// (`dist/engine/…/x.js` for the engine's own sources, `node_modules/…` for a bundled package).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MessageChannel } from "node:worker_threads";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const seen = new Set();
const { port1, port2 } = new MessageChannel();
port1.on("message", (url) => seen.add(url));
port1.unref();
register("./loaded-modules-hooks.mjs", import.meta.url, { data: { port: port2 }, transferList: [port2] });

/** Each bundle output's URL, with the URLs of the modules it holds. */
function bundleInputs() {
  const file = `${ROOT}dist/bundle-inputs.json`;
  if (!existsSync(file)) return new Map();
  const outputs = JSON.parse(readFileSync(file, "utf8"));
  const urlOf = (input) => pathToFileURL(ROOT + input.replace(/^(engine|cli|schema)\/(.*)\.ts$/, "dist/$1/$2.js")).href;
  return new Map(Object.entries(outputs).map(([output, inputs]) => [pathToFileURL(`${ROOT}dist/${output}`).href, inputs.map(urlOf)]));
}

process.on("exit", () => {
  for (const file of Object.keys(createRequire(import.meta.url).cache)) seen.add(pathToFileURL(file).href);
  const inputs = bundleInputs();
  const lines = [];
  for (const url of seen) lines.push(url, ...(inputs.get(url) ?? []));
  writeFileSync(process.env.LOADED_MODULES_FILE, lines.join("\n"));
});
