import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/examples.js";
import { type PackedInstall, packedInstall, runIn } from "../support/packed-install.js";
import { recordRun } from "../support/recorded-run.js";
import { connect } from "../support/services.js";

// The image as it runs, without building it: no container builder runs here (no Docker daemon,
// no podman) and the base image could not be pulled anyway. Its entry point is tested from a
// packed and installed copy in an empty folder, started with the Dockerfile's own ENTRYPOINT
// (node as the process that gets the signal), its manifest named by EVAL_SIMULATE_MANIFEST, then
// stopped with SIGTERM. Its /app is laid out from the Dockerfile's own COPY lines (what the image
// holds, and nothing the package holds besides) over the production dependencies, and its CLI
// run there: verify and eval --dry need every published schema. dist/ is packed as the process
// project's set-up built it (no prepare: rebuilding it here would change files other tests run).

const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const entrypoint = JSON.parse(/^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(dockerfile)![1]) as string[];
/** The image's own stage: everything after the last FROM. */
const finalStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));

let pack: PackedInstall;
let app: string;
let recipe: string;

beforeAll(() => {
  pack = packedInstall({ omitDev: true });
  app = pack.app;
  recipe = join(pack.work, "recipe");
  cpSync(join(ROOT, "test/fixtures/serve"), recipe, { recursive: true });
  // As the image links /node_modules/eval-simulate to /app, so a mounted Recipe's handlers resolve it.
  symlinkSync(join(app, "node_modules/eval-simulate"), join(mkdirp(join(pack.work, "node_modules")), "eval-simulate"));
}, 180_000);

afterAll(() => pack?.remove());

function mkdirp(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

interface Started {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: app, env: { ...process.env, NO_COLOR: "1", ...env } });
    let output = "";
    const exited = new Promise<number | null>((done) => child.on("close", done));
    const timer = setTimeout(() => reject(new Error(`did not start: ${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const port = /at http:\/\/[^:]+:(\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, port: Number(port), exited });
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    exited.then((code) => reject(new Error(`exited ${code} before starting: ${output}`)));
  });
}

/** Every process below `pid` (Linux), so a test can see the server npx started end too. */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      children = children.concat(readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number));
    }
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function within(ms: number, done: () => boolean): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return done();
}

async function bump(port: number): Promise<void> {
  const client = await connect(`http://127.0.0.1:${port}/notes/mcp`);
  const result = await client.callTool({ name: "bump", arguments: { by: 4 } });
  expect(result.isError).toBeFalsy();
  // The connection stays open on purpose: a client still connected must not hold up the stop.
  void client;
}

const counter = (file: string) => JSON.parse(readFileSync(file, "utf8")).notes.counter as number;

describe("the sidecar image's entry point", () => {
  // A failing run must not leave an orphaned server behind.
  const started: number[] = [];
  afterAll(() => {
    for (const pid of started) if (alive(pid)) process.kill(pid, "SIGKILL");
  });

  it("runs node directly with the serve command, reading the mounted manifest from EVAL_SIMULATE_MANIFEST", () => {
    expect(entrypoint.slice(0, 1)).toEqual(["node"]);
    expect(entrypoint.slice(2)).toEqual(["serve"]);
    expect(dockerfile).toMatch(/EVAL_SIMULATE_MANIFEST=\/recipe\/fakes\.yaml/);
    expect(dockerfile).toMatch(/^FROM node:20-slim\b/m);
  });

  it("stops on SIGTERM within 5 s, exit code 0, with the state file holding the write", async () => {
    const stateFile = join(recipe, "image-state.json");
    // /app/dist/cli/main.js in the image is the installed package's dist/cli/main.js here.
    const script = entrypoint[1].replace(/^\/app\//, join(app, "node_modules/eval-simulate/"));
    const server = await start(entrypoint[0] === "node" ? process.execPath : entrypoint[0], [script, ...entrypoint.slice(2)], {
      EVAL_SIMULATE_MANIFEST: join(recipe, "fakes.yaml"),
      EVAL_SIMULATE_PORT: "0",
      EVAL_SIMULATE_HOST: "127.0.0.1",
      EVAL_SIMULATE_STATE_FILE: stateFile,
    });
    await bump(server.port);
    expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);
    const sent = Date.now();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(counter(stateFile)).toBe(4);
  });

  it("stops the server npx started when npx gets SIGTERM, flushing the state file", async () => {
    const stateFile = join(recipe, "npx-state.json");
    writeFileSync(stateFile, "{}");
    const npx = await start(
      "npx",
      ["--no-install", "eval-simulate", "serve", join(recipe, "fakes.yaml"), "--port", "0", "--host", "127.0.0.1", "--state-file", stateFile],
      {},
    );
    await bump(npx.port);
    const below = descendants(npx.child.pid!);
    started.push(...below);
    const server = below.find((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("serve"))!;
    expect(server).toBeDefined();
    const sent = Date.now();
    npx.child.kill("SIGTERM");
    expect(await within(5000, () => !below.some(alive))).toBe(true);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(counter(stateFile)).toBe(4);
  });
});

/** Each COPY of the image's stage: its sources (relative to the repository) and its destination. */
function imageCopies(): Array<{ sources: string[]; dest: string }> {
  return [...finalStage.matchAll(/^COPY\s+(.+)$/gm)].map(([, line]) => {
    const words = line.trim().split(/\s+/);
    const fromBuild = words[0] === "--from=build";
    const paths = words.filter((w) => !w.startsWith("--"));
    // The build stage is the repository's files with dist/ built: /build/<path> is <path> here.
    return { sources: paths.slice(0, -1).map((p) => (fromBuild ? p.replace(/^\/build\//, "") : p)), dest: paths.at(-1)! };
  });
}

describe("the sidecar image's /app, as the Dockerfile lays it out", () => {
  let image: string;
  let imageApp: string;
  let mounted: string;

  beforeAll(() => {
    image = mkdtempSync(join(tmpdir(), "eval-simulate-image-app-"));
    imageApp = mkdirp(join(image, "app"));
    for (const { sources, dest } of imageCopies()) {
      for (const source of sources) {
        const target = dest.endsWith("/") ? join(imageApp, dest, source.split("/").at(-1)!) : join(imageApp, dest);
        cpSync(join(ROOT, source), target, { recursive: true });
      }
    }
    // `npm ci --omit=dev` in the image: the production dependencies the packed install has.
    symlinkSync(join(app, "node_modules"), join(imageApp, "node_modules"));
    symlinkSync(imageApp, join(mkdirp(join(image, "node_modules")), "eval-simulate"));
    mounted = join(image, "recipe");
    cpSync(join(ROOT, "examples/crm"), mounted, { recursive: true });
  });

  afterAll(() => image && rmSync(image, { recursive: true, force: true }));

  const imageCli = (args: string[]) => runIn(image, process.execPath, [join(imageApp, "dist/cli/main.js"), ...args]);

  it("copies every schema the package publishes", () => {
    const published = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).files as string[]).filter((f) => f.endsWith(".schema.json"));
    expect(published.length).toBeGreaterThanOrEqual(2);
    for (const schema of published) expect(existsSync(join(imageApp, schema)), schema).toBe(true);
  });

  it("builds with every file the build script runs copied into the build stage", () => {
    const buildStage = dockerfile.slice(0, dockerfile.lastIndexOf("\nFROM "));
    const copied = [...buildStage.matchAll(/^COPY\s+(.+)$/gm)].flatMap(([, line]) => line.trim().split(/\s+/).slice(0, -1));
    const script = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.build as string;
    const files = [...script.matchAll(/\bnode\s+([\w./-]+\.m?js)\b/g)].map(([, file]) => file!);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files)
      expect(
        copied.some((source) => file === source || file.startsWith(`${source.replace(/\/$/, "")}/`)),
        file,
      ).toBe(true);
  });

  it("runs as a user other than root, and leaves conformance/.generated out of the build context", () => {
    const user = [...finalStage.matchAll(/^USER\s+(\S+)/gm)].at(-1)?.[1];
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    // The user is set before the entry point runs, after the last step that needs root.
    expect(finalStage.lastIndexOf("\nUSER ")).toBeGreaterThan(finalStage.lastIndexOf("\nRUN "));
    expect(finalStage.lastIndexOf("\nUSER ")).toBeLessThan(finalStage.indexOf("\nENTRYPOINT "));
    const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim());
    expect(ignored).toContain("conformance/.generated");
  });

  it("runs a mounted Recipe's evals offline with eval --dry", { timeout: 120_000 }, async () => {
    const run = await imageCli(["eval", join(mounted, "evals.yaml"), "--dry"]);
    expect(run.stdout, run.stderr).toMatch(/^PASS: 5 cases/m);
    expect(run.code).toBe(0);
  });

  // A real serve records the run, then the image's verify judges it: slow on a busy machine, never stuck.
  it("judges a recorded run with verify", { timeout: 120_000 }, async () => {
    const evals = readFileSync(join(mounted, "evals.yaml"), "utf8");
    expect(evals).toContain("id: pipeline-value");
    const { dir } = await recordRun(join(mounted, "fakes.yaml"), [{ tool: "crm/search-records", args: { object: "deals", query: "Acme" } }], {
      scenario: "quiet",
      clock: "2026-10-01T09:00:00.000Z",
      // The script's own answer: its rubric's judgment is cached beside the evals file.
      answer: "The Acme renewal is worth 48,000 USD.",
    });
    try {
      const run = await imageCli(["verify", join(mounted, "evals.yaml"), "--case", "pipeline-value", "--run", dir]);
      expect(run.stderr).not.toMatch(/ENOENT|schema/);
      expect(run.stdout).toMatch(/pipeline-value/);
      expect(run.code, run.stdout + run.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
