import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { type ArgsDef, defineCommand } from "citty";
import { parse } from "yaml";
import { captureMcpServer, type McpServerCapture } from "../engine/author/capture/index.js";
import { mcpTarget } from "../engine/author/capture/index.js";
import { packageRoot } from "../engine/author/manifest/index.js";
import { modelinePackagePath, recipePackage, scaffoldRecipe } from "../engine/author/scaffold/index.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";

const args = {
  dir: { type: "positional", required: false, description: "The Recipe folder to write (default .)", valueHint: "dir" },
  from: { type: "string", description: "A captured tools/list (JSON or YAML: { tools: [...] } or the list)" },
  mcp: { type: "string", description: 'A real MCP server to capture over stdio: "[NAME=value ...] <command> [args...]"' },
  "mcp-url": { type: "string", description: "A real MCP server to capture over Streamable HTTP" },
  id: { type: "string", description: "The fake's id (default: the server's name, or the capture file's folder)" },
  force: { type: "boolean", description: "Overwrite files that already exist" },
} satisfies ArgsDef;

const usage = (message: string) => {
  process.stderr.write(`eval-simulate: ${message}\n`);
  process.exitCode = EXIT.usage;
};

/** Whether anything is at `path`, a link that leads nowhere included. */
const there = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** A fake id from a server's or file's name: lowercase letters, digits and dashes. */
function idFrom(name: string): string {
  const id = name
    .replace(/^@[^/]+\//, "")
    .replace(/^(?:mcp-server-|server-)|(?:-mcp-server|-server|-mcp)$/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return /^[a-z]/.test(id) ? id : `server${id ? `-${id}` : ""}`;
}

/** The installed eval-simulate package nearest the Recipe folder (walking up), relative to it. */
function installedPackage(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const installed = join(at, "node_modules/eval-simulate");
    if (existsSync(join(installed, "eval-simulate.schema.json"))) return relative(dir, installed);
    if (dirname(at) === at) return undefined;
  }
}

/** The Recipe's package.json, read when there is one (undefined when not; an error when it is not JSON). */
function readPackage(file: string): Record<string, unknown> | undefined {
  if (!existsSync(file)) {
    // Completing it would write wherever the link points.
    if (there(file)) throw new Error(`${file} is a link to nothing`);
    return undefined;
  }
  const json = JSON.parse(readFileSync(file, "utf8")) as unknown;
  if (json === null || typeof json !== "object" || Array.isArray(json)) throw new Error(`${file} is not a JSON object`);
  return json as Record<string, unknown>;
}

/** This package's version and the client version it depends on, for the Recipe's package.json. */
function ownVersions(): { evalSimulate: string; client: string } {
  const own = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string; dependencies: Record<string, string> };
  return { evalSimulate: own.version, client: own.dependencies["@modelcontextprotocol/client"]! };
}

async function readCapture(parsed: { from?: string; mcp?: string; "mcp-url"?: string }): Promise<{ capture: McpServerCapture; name: string }> {
  if (parsed.from) {
    const raw = parse(readFileSync(parsed.from, "utf8")) as unknown;
    const capture = (Array.isArray(raw) ? { tools: raw } : raw) as McpServerCapture;
    if (!capture || !Array.isArray(capture.tools)) throw new Error(`${parsed.from} holds no tools list ({ "tools": [...] })`);
    return { capture, name: capture.serverInfo?.name ?? basename(dirname(resolve(parsed.from))) };
  }
  const target = mcpTarget({ command: parsed.mcp, url: parsed["mcp-url"] });
  const capture = await captureMcpServer(target);
  return { capture, name: capture.serverInfo?.name ?? "server" };
}

/** `eval-simulate init [dir] --from tools.json | --mcp "<command>"`: a starting Recipe. */
export default defineCommand({
  meta: {
    name: "init",
    description:
      "Write a starting Recipe (fakes.yaml, the capture, a test file, a starter evals.yaml, package.json) from a captured tools/list or a real MCP server.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    const sources = [parsed.from, parsed.mcp, parsed["mcp-url"]].filter((s) => s !== undefined);
    if (sources.length !== 1) return usage('init takes one of --from <tools.json>, --mcp "<command>" or --mcp-url <url>');
    let read: Awaited<ReturnType<typeof readCapture>>;
    try {
      read = await readCapture(parsed);
    } catch (error) {
      return usage(`cannot read the server's tools: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`);
    }
    const id = parsed.id ?? idFrom(read.name);
    if (!/^[a-z][a-z0-9-]*$/.test(id)) return usage(`--id takes lowercase letters, digits and dashes, starting with a letter, not "${id}"`);
    const dir = resolve(parsed.dir || ".");
    const source = parsed.mcp !== undefined ? { command: parsed.mcp } : parsed["mcp-url"] !== undefined ? { url: parsed["mcp-url"] } : undefined;
    const packagePath = modelinePackagePath(installedPackage(dir));
    const files = scaffoldRecipe({ id, capture: read.capture, packagePath, ...(source && { source }) });
    // A link counts as a file there, dangling or not: writing would follow it out of the folder.
    const existing = files.filter((file) => there(join(dir, file.path)));
    if (existing.length > 0 && !parsed.force) return usage(`not overwriting ${existing.map((f) => f.path).join(", ")} (use --force)`);
    let pkg: ReturnType<typeof recipePackage>;
    try {
      // A package.json already there is completed, never replaced (npm install <tarball> writes one).
      pkg = recipePackage(readPackage(join(dir, "package.json")), `${id}-recipe`, ownVersions());
    } catch (error) {
      return usage(`cannot read the Recipe's package.json: ${(error as Error).message}`);
    }
    try {
      mkdirSync(dir, { recursive: true });
      for (const file of files) {
        mkdirSync(dirname(join(dir, file.path)), { recursive: true });
        writeFileSync(join(dir, file.path), file.text);
      }
      if (pkg.added.length > 0) writeFileSync(join(dir, "package.json"), pkg.text);
    } catch (error) {
      // A folder that is a file, or one it may not write, is said plainly, never as a stack trace.
      process.stderr.write(`eval-simulate init: cannot write the Recipe into ${dir}: ${(error as Error).message}\n`);
      process.exitCode = EXIT.invalid;
      return;
    }
    const where = relative(process.cwd(), dir) || ".";
    const written = [...files.map((f) => `  ${f.path}`), ...(pkg.added.length > 0 ? [`  package.json (${pkg.added.join(", ")})`] : [])];
    process.stdout.write(
      `wrote a Recipe for "${id}" (${read.capture.tools.length} tools) in ${where}:\n${written.join("\n")}\n` +
        `next: npm install${where === "." ? "" : ` (in ${where})`}, npm test, npx eval-simulate eval evals.yaml --dry; then write each tool's handler\n`,
    );
    for (const warning of pkg.warnings) process.stderr.write(`eval-simulate init: ${warning}\n`);
  },
});
