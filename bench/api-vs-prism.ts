/**
 * API fakes: requests/s of the engine serving examples/github (GitHub's real, trimmed issues
 * description) against Prism 5.14.2 mocking the same document, and a bare node:http JSON server
 * (the floor). Prism is installed into bench/.generated for the benchmark only. Interleaved
 * rounds, each server in its own process, loopback only.
 *
 *   npm run build && node --import jiti/register bench/api-vs-prism.ts
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { drive, median, quantile, type RunResult } from "./support/load.js";
import { ROOT, type Subject, startSubject, table } from "./support/processes.js";
import { get } from "./support/get.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PRISM_DIR = join(ROOT, "bench", ".generated", "prism");
const PRISM = join(PRISM_DIR, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
if (!existsSync(PRISM)) {
  console.log("installing @stoplight/prism-cli@5.14.2 into bench/.generated/prism (the benchmark only)…");
  execFileSync("npm", ["install", "--prefix", PRISM_DIR, "--no-audit", "--no-fund", "--no-save", "@stoplight/prism-cli@5.14.2"], { stdio: "inherit" });
}
const manifest = join(ROOT, "examples", "github", "fakes.yaml");
const document = join(ROOT, "examples", "github", "api", "github", "openapi.yaml");
const subjects: Array<Subject & { path: string }> = [
  {
    ...(await startSubject("engine (examples/github, JSONata read)", [
      join(ROOT, "dist/cli/main.js"),
      "serve",
      manifest,
      "--port",
      "0",
      "--host",
      "127.0.0.1",
    ])),
    path: "/github/repos/acme/widgets/issues/1",
  },
  { ...(await startPrism()), path: "/repos/acme/widgets/issues/1" },
  {
    ...(await startSubject("bare node:http JSON (floor)", ["--import", "jiti/register", join(ROOT, "bench/servers/json-echo.ts")])),
    path: "/repos/acme/widgets/issues/1",
  },
];

function startPrism(): Promise<Subject> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  // Prism says "Prism is listening on http://127.0.0.1:<port>" once it serves.
  return startSubject("Prism 5.14.2 mock (same document)", [PRISM, "mock", document, "--port", String(port), "--host", "127.0.0.1", "--errors", "false"]);
}

const results = new Map<string, { sequential: RunResult[]; concurrent: RunResult[] }>(subjects.map((s) => [s.label, { sequential: [], concurrent: [] }]));
try {
  for (const s of subjects) {
    const body = await get(`http://127.0.0.1:${s.port}${s.path}`);
    if (!body.includes('"number"')) throw new Error(`${s.label} answered ${body.slice(0, 200)}`);
    await drive(() => get(`http://127.0.0.1:${s.port}${s.path}`), Math.min(200, CALLS), 8);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < subjects.length; i++) {
      const s = subjects[(i + round) % subjects.length];
      const send = () => get(`http://127.0.0.1:${s.port}${s.path}`);
      results.get(s.label)!.sequential.push(await drive(send, CALLS, 1));
      results.get(s.label)!.concurrent.push(await drive(send, CALLS, 8));
    }
  }
} finally {
  await Promise.all(subjects.map((s) => s.stop()));
}
const rows = subjects.map((s) => {
  const r = results.get(s.label)!;
  return {
    label: s.label,
    seq: median(r.sequential.map((x) => x.callsPerSecond)),
    con: median(r.concurrent.map((x) => x.callsPerSecond)),
    p50: quantile(
      r.sequential.flatMap((x) => x.latenciesMs),
      0.5,
    ),
  };
});
console.log(`API fake: GET /repos/{owner}/{repo}/issues/{issue_number}, ${ROUNDS} interleaved rounds × ${CALLS} requests`);
console.log(
  table([
    ["subject", "seq req/s", "p50 ms", "x8 req/s", "vs Prism (x8)", "vs floor (x8)"],
    ...rows.map((r) => [
      r.label,
      r.seq.toFixed(0),
      r.p50.toFixed(2),
      r.con.toFixed(0),
      `${(r.con / rows[1].con).toFixed(2)}×`,
      `${(r.con / rows[2].con).toFixed(2)}×`,
    ]),
  ]),
);
