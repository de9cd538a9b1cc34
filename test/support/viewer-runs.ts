/**
 * Real results files for the viewer's tests: the crm and mail examples' scripted cases
 * (`eval --dry`), the workspace example's tool selection against a scripted provider, and a
 * hostile copy of the crm run (a failing trial whose answer and tool name are markup), plus
 * `eval-simulate view` started as a process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { queryOf, WORKSPACE_PICKS } from "../selection/workspace-picks.js";
import { CLI, runCli } from "./cli-process.js";
import { ROOT } from "./examples.js";
import { startScriptedProvider } from "./scripted-provider.js";

/** Markup a results file might carry: rendered as text, it runs nothing. */
export const HOSTILE = `<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script> 🎉`;

async function run(args: string[]): Promise<void> {
  const done = await runCli(args);
  if (done.code !== 0) throw new Error(`[test] eval-simulate ${args.join(" ")} exited ${done.code}: ${done.stdout}${done.stderr}`);
}

/** The results files of the three examples and the hostile run, written into `dir`. */
export async function exampleRuns(dir: string): Promise<{ crm: string; mail: string; workspace: string; hostile: string }> {
  const files = {
    crm: join(dir, "crm.ndjson"),
    mail: join(dir, "mail.ndjson"),
    workspace: join(dir, "workspace.ndjson"),
    hostile: join(dir, "hostile.ndjson"),
  };
  await Promise.all([
    run(["eval", "examples/crm/evals.yaml", "--dry", "--out", files.crm]),
    run(["eval", "examples/mail/evals.yaml", "--dry", "--out", files.mail]),
    selectionRun(files.workspace),
  ]);
  failedCopy(files.crm, files.hostile);
  return files;
}

/** The workspace example's tool selection, against a scripted provider that misses one fixture. */
async function selectionRun(out: string): Promise<void> {
  const byQuery = new Map(Object.entries(WORKSPACE_PICKS.queries).map(([id, query]) => [query, id]));
  const provider = await startScriptedProvider((request) => {
    const id = byQuery.get(queryOf(request)) ?? "";
    return { toolCalls: [{ name: id === "tree" ? "list_directory" : (WORKSPACE_PICKS.right[id]?.[0] ?? "read_text_file"), arguments: {} }] };
  });
  try {
    const done = await runCli(
      ["select", "examples/workspace/evals.yaml", "--model", "anthropic:claude-haiku-4-5", "--base-url", provider.baseURL, "--out", out],
      {
        env: { ANTHROPIC_API_KEY: "sk-ant-test" },
      },
    );
    if (done.code !== 0) throw new Error(`[test] select exited ${done.code}: ${done.stderr}`);
  } finally {
    await provider.close();
  }
}

/** A copy of a crm run with one trial failed (`close-acme-renewal`): a failed assertion, a hostile answer and tool name. */
export function failedCopy(crm: string, out: string): void {
  const lines = readFileSync(crm, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const trial = lines.find((l) => l.case === "close-acme-renewal");
  trial.status = "fail";
  trial.answer = `${HOSTILE}\n${"a very long answer ".repeat(400)}`;
  trial.assertions[1] = { ...trial.assertions[1], passed: false, status: "failed", message: `expected the deal won; saw ${HOSTILE}` };
  trial.session.record[0].tool = HOSTILE;
  // A line with the runner's transcript (user, agent and tool messages by turn), as a model host writes it.
  const asked = lines.find((l) => l.case === "pipeline-value");
  asked.transcript = [
    { turn: 0, role: "user", content: "What is the Acme renewal worth?", by: "user" },
    { turn: 0, role: "assistant", toolCalls: [{ id: "c1", name: "search-records", args: { object: "deals", query: "Acme" } }], by: "agent" },
    { turn: 0, role: "tool", toolCallId: "c1", name: "search-records", result: asked.session.record[0].result },
    { turn: 0, role: "assistant", content: asked.answer, by: "agent" },
  ];
  asked.turns = 1;
  writeFileSync(out, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
}

/** A running `eval-simulate view` and the address it printed. */
export interface ViewProcess {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

/** Starts `eval-simulate view <files…>` and waits for its address. */
export function startView(files: string[]): Promise<ViewProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "view", ...files], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
    let output = "";
    const exited = new Promise<number | null>((done) => child.on("close", done));
    const timer = setTimeout(() => reject(new Error(`[test] view did not start: ${output}`)), 20_000);
    child.stderr.on("data", (d) => (output += d));
    child.stdout.on("data", (d) => {
      output += d;
      const url = /viewer: (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, exited });
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`[test] view exited ${code} before starting: ${output}`));
    });
  });
}
