import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/examples.js";
import { connect } from "../support/services.js";

// The image's entry point, tested as the image runs it: a packed and installed copy in an empty
// folder, started with the Dockerfile's own ENTRYPOINT (node as the process that gets the signal),
// its manifest named by EVAL_SIMULATE_MANIFEST, then stopped with SIGTERM. No Docker daemon runs
// here, so the image itself is never built in tests. dist/ is packed as `npm test` built it (no
// prepare: rebuilding it here would change files other tests are running).

const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const entrypoint = JSON.parse(/^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(dockerfile)![1]) as string[];

let app: string;
let recipe: string;

beforeAll(() => {
  const work = mkdtempSync(join(tmpdir(), "eval-simulate-image-"));
  const packed = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], { cwd: ROOT, encoding: "utf8" })
    .trim()
    .split("\n")
    .at(-1)!;
  app = join(work, "app");
  execFileSync("npm", ["init", "-y"], {
    cwd: (cpSync(join(ROOT, "test/fixtures/serve"), join(work, "recipe"), { recursive: true }), mkdirp(app)),
    stdio: "ignore",
  });
  execFileSync("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline", join(work, packed)], { cwd: app, stdio: "ignore" });
  recipe = join(work, "recipe");
  // As the image links /node_modules/eval-simulate to /app, so a mounted Recipe's handlers resolve it.
  symlinkSync(join(app, "node_modules/eval-simulate"), join(mkdirp(join(work, "node_modules")), "eval-simulate"));
}, 180_000);

function mkdirp(dir: string): string {
  execFileSync("mkdir", ["-p", dir]);
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
