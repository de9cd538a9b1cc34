// `npm run build`, after tsc: bundles what the package runs into a few files. Loading ~500 ES
// modules (the engine's own, the MCP SDK's and zod's) was most of a start's CPU: Node 20 reads
// each through its asynchronous loader and has no compile cache. esbuild rewrites the files the
// package's `bin` and `exports` name (and the `eval --workers` worker) in place, from the
// sources, with the code they share split into dist/engine/chunks/: one build, so the CLI and a
// handler's `import "eval-simulate"` run the same module instances, and a dynamic `import()`
// (the judge for an evals file, the MCP SDK on first mount, OpenTelemetry, emulate) stays a
// chunk loaded on first use. tsc's files stay beside them for their types.
//
// Bundled: the engine and the official MCP SDK's packages (with zod, which only they use), pinned
// exactly in package.json, so the bundle holds the versions the lockfile installs. Every other
// dependency stays external and loads from node_modules as before, lazily where it was lazy
// (the engine reads those through createRequire, which esbuild leaves alone).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

// A path, not the URL's pathname: that keeps percent-escapes (a space is %20), which no file has.
const root = fileURLToPath(new URL("../", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** A built file's path under dist/ (no extension) and the source it comes from. */
function entryOf(built) {
  const inDist = built
    .replace(/^\.\//, "")
    .replace(/^dist\//, "")
    .replace(/\.js$/, "");
  return [inDist, `${inDist}.ts`];
}
const built = new Set([pkg.bin["eval-simulate"], "dist/engine/eval/runner/trial-worker.js"]);
for (const target of Object.values(pkg.exports)) {
  const file = typeof target === "string" ? target : target.default;
  if (file.endsWith(".js")) built.add(file);
}

const BUNDLED = /^@modelcontextprotocol\//;
const external = Object.keys(pkg.dependencies)
  .filter((name) => !BUNDLED.test(name))
  .flatMap((name) => [name, `${name}/*`]);

// A build names its chunks by their content: the last build's must not stay beside them.
rmSync(join(root, "dist", "engine", "chunks"), { recursive: true, force: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries([...built].map(entryOf)),
  outdir: join(root, "dist"),
  chunkNames: "engine/chunks/[name]-[hash]",
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external,
  // The SDK's stdio transport reaches Node built-ins through CommonJS `require` (cross-spawn),
  // which an ES module has no binding for.
  banner: { js: 'import { createRequire as __bundleCreateRequire } from "node:module"; const require = __bundleCreateRequire(import.meta.url);' },
  legalComments: "eof",
  metafile: true,
  logLevel: "warning",
});

// Which modules each output holds (test/support/loaded-modules.mjs reads it to tell what a
// command loaded), and the licences of the packages bundled in.
const inputs = Object.fromEntries(
  Object.entries(result.metafile.outputs).map(([output, { inputs }]) => [output.replace(/^dist\//, ""), Object.keys(inputs).sort()]),
);
writeFileSync(join(root, "dist", "bundle-inputs.json"), `${JSON.stringify(inputs, null, 1)}\n`);

// Each bundled package by the folder it was read from (the last node_modules/<name>/ of a path).
const PACKAGE_DIR = /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//;
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const found = PACKAGE_DIR.exec(input);
  if (found) packages.set(found[1], { dir: join(root, found[0]) });
}
// The SDK's own files already hold packages its bundler put in them (ajv, ajv-formats, fast-uri,
// fast-deep-equal, json-schema-traverse, content-type), each under a `//#region <path>` comment
// naming where it came from: they are bundled here too, so their licences travel with it.
const REGION = /^\/\/#region \S*?node_modules\/(?:\.pnpm\/[^/]*?@([^@_/]+)[^/]*\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//gm;
for (const input of Object.keys(result.metafile.inputs)) {
  const holder = PACKAGE_DIR.exec(input)?.[1];
  if (holder === undefined) continue;
  for (const [, version, name] of readFileSync(join(root, input), "utf8").matchAll(REGION)) {
    const known = packages.get(name) ?? { dir: join(root, "node_modules", name), version, inside: new Set() };
    known.inside?.add(holder);
    packages.set(name, known);
  }
}
const readable = (f) => {
  try {
    return readFileSync(f, "utf8").trim();
  } catch {
    return "";
  }
};
const notices = [...packages.keys()].sort().map((name) => {
  const { dir, inside = new Set(), ...found } = packages.get(name);
  const manifest = readable(join(dir, "package.json"));
  if (!manifest)
    throw new Error(
      `[eval-simulate] bundle: ${name} is bundled (inside ${[...inside].join(", ")}) but not installed, so its licence cannot be copied: add it to devDependencies`,
    );
  const { license, ...installed } = JSON.parse(manifest);
  const version = found.version ?? installed.version;
  const licence = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license"].map((f) => readable(join(dir, f))).find(Boolean);
  // Apache-2.0 asks for a NOTICE file to travel with the code, when the package has one.
  const notice = ["NOTICE", "NOTICE.md", "NOTICE.txt"].map((f) => readable(join(dir, f))).find(Boolean);
  const text = [licence ?? `${license} (the package ships no licence file)`, ...(notice ? [notice] : [])].join("\n\n");
  return `${name}@${version} (${license})${inside.size > 0 ? `, inside the files of ${[...inside].sort().join(" and ")}` : ""}\n\n${text}\n`;
});
writeFileSync(
  join(root, "dist", "engine", "chunks", "THIRD-PARTY-LICENSES.txt"),
  `The packages bundled into dist/engine/chunks/, with their licences.\n\n${notices.join(`\n${"-".repeat(72)}\n\n`)}`,
);
