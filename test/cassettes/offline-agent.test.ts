// The proof of the model fakes: examples/offline-agent's AI SDK agent, run by a command host,
// recorded once against the scripted provider on loopback (every client the AI SDK offers,
// streaming and not), then replayed with the provider stopped and no key; a prompt edited after
// the recording fails with the diff. The recording holds no secret, and is the committed one,
// byte for byte: the same run records the same cassettes.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { type ScriptedProvider, startScriptedProvider } from "../support/scripted-provider.js";

const EXAMPLE = `${ROOT}examples/offline-agent`;
const CASSETTES = "evals.cassettes";
const RECORDED = ["anthropic", "anthropic-stream", "chat", "compatible-stream", "responses", "responses-stream"];
const OPENAI_KEY = "sk-proj-offlineAgentTestKey0123456789abcdef";
const ANTHROPIC_KEY = "sk-ant-api03-offlineAgentTestKey0123456789abcdef";
/** The stamp the committed cassettes were recorded at. */
const CREATED = 1_790_000_000;
/** Each run starts seven agents (node and the AI SDK each): minutes on a loaded machine, never a hang. */
const RUN_TIMEOUT_MS = 180_000;

/** Keys and base URLs only the runner sees: the agent's are the fakes'. */
const keyless = { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", OPENAI_BASE_URL: "", ANTHROPIC_BASE_URL: "" };

let dir: string;
let provider: ScriptedProvider;

const lines = (out: string) =>
  readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { case: string; status: string; reason?: string; answer?: string; requests: number });
const eval_ = (flags: string[], env: NodeJS.ProcessEnv, out: string) =>
  runCli(["eval", "evals.yaml", "--out", out, "--fresh", "--concurrency", "2", ...flags], { cwd: dir, env });
const cassette = (root: string, id: string) => readFileSync(join(root, CASSETTES, id, "trial-0.json"), "utf8");

beforeAll(async () => {
  // A copy of the example, without its cassettes; the agent's imports resolve through node_modules.
  dir = mkdtempSync(join(tmpdir(), "eval-simulate-offline-agent-"));
  cpSync(EXAMPLE, dir, { recursive: true, filter: (source) => !source.includes(CASSETTES) });
  symlinkSync(`${ROOT}node_modules`, join(dir, "node_modules"));
  provider = await startScriptedProvider(
    (request) => (request.toolResults.length === 0 ? { toolCalls: [{ name: "close-ticket", arguments: { id: "T-101" } }] } : { text: "Closed T-101." }),
    { created: CREATED },
  );
});

afterAll(async () => {
  await provider?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("an AI SDK agent's model, recorded and replayed", () => {
  it(
    "records every client's traffic from the real provider, with the runner's key, into cassettes beside the evals file",
    async () => {
      const env = { OPENAI_BASE_URL: provider.baseURL, OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_BASE_URL: provider.baseURL, ANTHROPIC_API_KEY: ANTHROPIC_KEY };
      const out = join(dir, "record.ndjson");
      // One trial at a time: the scripted provider numbers its answers' ids across every trial it serves.
      const run = await eval_(["--record-models", "--concurrency", "1"], env, out);
      expect(run.stdout).toContain("PASS:");
      expect(run.code).toBe(0);
      expect(lines(out).map((l) => [l.case, l.status])).toEqual(expect.arrayContaining([...RECORDED, "scripted"].map((id) => [id, "pass"])));
      // Two model requests per recorded trial (a tool call, then the answer); the scripted case asked the provider nothing.
      expect(provider.requests).toHaveLength(RECORDED.length * 2);
      expect(readdirSync(join(dir, CASSETTES)).sort()).toEqual(RECORDED);
      // The provider got the runner's key, never the agent's dummy one.
      for (const request of provider.requests) {
        const auth = String(request.headers.authorization ?? request.headers["x-api-key"]);
        expect([`Bearer ${OPENAI_KEY}`, ANTHROPIC_KEY]).toContain(auth);
      }
    },
    RUN_TIMEOUT_MS,
  );

  it("keeps no secret in a cassette", () => {
    for (const id of RECORDED) {
      const text = cassette(dir, id);
      expect(text).not.toContain("offlineAgentTestKey");
      expect(text).not.toContain("eval-simulate-no-key");
      expect(text).not.toMatch(/authorization|x-api-key|Bearer /i);
    }
  });

  it("records the committed cassettes byte for byte: the same run, the same bytes", async () => {
    // A file snapshot: compared byte for byte (written only where it is missing, outside CI, or with -u).
    for (const id of RECORDED) await expect(cassette(dir, id), id).toMatchFileSnapshot(join(EXAMPLE, CASSETTES, id, "trial-0.json"));
  });

  it(
    "replays them offline, in worker processes, the provider stopped and no key set: every case passes on a real verdict",
    async () => {
      await provider.close();
      const out = join(dir, "replay.ndjson");
      // In worker processes: each has its own fakes' port, and reads the cassettes beside the same evals file.
      const run = await eval_(["--replay-models", "--workers", "2"], keyless, out);
      expect(run.code).toBe(0);
      const replayed = lines(out);
      expect(replayed.map((l) => [l.case, l.status]).sort()).toEqual([...RECORDED, "scripted"].sort().map((id) => [id, "pass"]));
      for (const line of replayed) expect(line.answer).toBe("Closed T-101.");
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "fails a trial whose request no longer matches its recording, with the diff against the nearest",
    async () => {
      const evals = join(dir, "evals.yaml");
      writeFileSync(evals, readFileSync(evals, "utf8").replace(/Close ticket T-101, the printer fire is out\./g, "Close ticket T-101 now."));
      const out = join(dir, "edited.ndjson");
      const run = await eval_(["--replay-models", "--case", "chat,anthropic-stream"], keyless, out);
      expect(run.code).toBe(1);
      for (const line of lines(out)) {
        expect(line.status).toBe("fail");
        expect(line.reason).toMatch(/^model request 1 matches no recording in .*trial-0\.json; against the nearest \(request 1\), - recorded \+ sent:\n/);
        expect(line.reason).toMatch(/^- .*Close ticket T-101, the printer fire is out\./m);
        expect(line.reason).toMatch(/^\+ .*Close ticket T-101 now\./m);
      }
    },
    RUN_TIMEOUT_MS,
  );
});
