/**
 * `npm run conformance`: the official MCP conformance suite's server scenarios against the
 * conformance example (examples/conformance), served by `eval-simulate serve` on loopback.
 * Prints each scenario's result, in scope or not (scope.ts says which and why), and exits 1 when
 * an in-scope scenario fails or the suite has a scenario scope.ts does not list.
 *
 *   npm run conformance              # --verbose also prints the suite's own output
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createWriteStream, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { GENERATED, installSuite, ROOT } from "./install.js";
import { IN_SCOPE, OUT_OF_SCOPE, SUITE_VERSION } from "./scope.js";

const verbose = process.argv.includes("--verbose");
const RESULTS = join(GENERATED, "results");
const LOG = join(GENERATED, "last-run.log");

interface Check {
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | string;
  errorMessage?: string;
}
interface Outcome {
  passed: number;
  failed: number;
  warnings: number;
  firstError?: string;
}

/** Starts `eval-simulate serve` on the example, on a free loopback port; resolves with its MCP URL. */
function serveExample(): Promise<{ child: ChildProcess; url: string }> {
  const manifest = join(ROOT, "examples", "conformance", "fakes.yaml");
  const child = spawn(process.execPath, [join(ROOT, "dist", "cli", "main.js"), "serve", manifest, "--port", "0", "--host", "127.0.0.1"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`serve did not start within 30 s: ${out}`)), 30_000);
    child.stderr?.on("data", (chunk) => (out += chunk));
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      const url = /^\s+conformance\s+(http:\/\/\S+\/mcp)$/m.exec(out)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ child, url });
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${out}`));
    });
  });
}

/** Runs every server scenario of the suite (`--suite all`: pending ones too), results in RESULTS. */
function runSuite(node: string, cli: string, url: string): Promise<void> {
  rmSync(RESULTS, { recursive: true, force: true });
  const log = createWriteStream(LOG);
  const child = spawn(node, [cli, "server", "--url", url, "--suite", "all", "-o", RESULTS], { cwd: GENERATED, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) {
    stream.pipe(log, { end: false });
    if (verbose) stream.pipe(process.stdout, { end: false });
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10 * 60_000);
    child.once("error", reject);
    // The suite exits 1 whenever any scenario fails, out-of-scope ones included: the results decide.
    child.once("close", () => {
      clearTimeout(timer);
      log.end();
      resolve();
    });
  });
}

/** Each scenario's checks, from the `server-<scenario>-<timestamp>` folders the suite writes. */
function readResults(): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>();
  if (!existsSync(RESULTS)) return outcomes;
  for (const folder of readdirSync(RESULTS)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(folder)?.[1];
    const file = join(RESULTS, folder, "checks.json");
    if (scenario === undefined || !existsSync(file)) continue;
    const checks = JSON.parse(readFileSync(file, "utf8")) as Check[];
    const count = (status: string) => checks.filter((check) => check.status === status).length;
    const firstError = checks.find((check) => check.status === "FAILURE")?.errorMessage;
    outcomes.set(scenario, { passed: count("SUCCESS"), failed: count("FAILURE"), warnings: count("WARNING"), ...(firstError && { firstError }) });
  }
  return outcomes;
}

function describe(outcome: Outcome | undefined): { mark: string; text: string; ok: boolean } {
  if (outcome === undefined) return { mark: "✗", text: `no result (see ${LOG})`, ok: false };
  const counts = `${outcome.passed} passed, ${outcome.failed} failed${outcome.warnings ? `, ${outcome.warnings} warning${outcome.warnings === 1 ? "" : "s"}` : ""}`;
  if (outcome.failed > 0) return { mark: "✗", text: `${counts}: ${outcome.firstError ?? "failed"}`, ok: false };
  if (outcome.passed === 0) return { mark: "~", text: `${counts}: nothing checked`, ok: false };
  return { mark: "✓", text: counts, ok: true };
}

const { node, cli } = installSuite();
const served = await serveExample();
try {
  const nodeVersion = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  console.log(`MCP conformance suite ${SUITE_VERSION} (Node ${nodeVersion}) against examples/conformance at ${served.url}\n`);
  await runSuite(node, cli, served.url);
} finally {
  served.child.kill("SIGTERM");
}
const outcomes = readResults();
const width = Math.max(...[...IN_SCOPE, ...Object.keys(OUT_OF_SCOPE), ...outcomes.keys()].map((name) => name.length));
let failed = 0;
console.log("In scope (must pass):");
for (const scenario of IN_SCOPE) {
  const { mark, text, ok } = describe(outcomes.get(scenario));
  if (!ok) failed++;
  console.log(`  ${mark} ${scenario.padEnd(width)}  ${text}`);
}
console.log("\nOut of scope (not counted):");
for (const [scenario, reason] of Object.entries(OUT_OF_SCOPE)) {
  const outcome = outcomes.get(scenario);
  const { mark, text } = describe(outcome);
  console.log(`  ${mark} ${scenario.padEnd(width)}  ${outcome === undefined ? "not run" : text.replace(/:.*$/, "")}; ${reason}`);
}
const unlisted = [...outcomes.keys()].filter((scenario) => !IN_SCOPE.includes(scenario) && !(scenario in OUT_OF_SCOPE));
for (const scenario of unlisted) {
  console.log(`  ✗ ${scenario.padEnd(width)}  not listed in conformance/scope.ts: decide whether a fake should pass it`);
}
console.log(
  `\n${IN_SCOPE.length - failed} of ${IN_SCOPE.length} in-scope scenarios passed${unlisted.length ? `, ${unlisted.length} unlisted` : ""}; the suite's output is in ${LOG}`,
);
process.exitCode = failed > 0 || unlisted.length > 0 ? 1 : 0;
