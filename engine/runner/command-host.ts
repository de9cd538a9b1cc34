/**
 * The command host: any agent CLI, given the trial's MCP servers as a JSON config file (the
 * `mcpServers` shape agents read) and the prompt, filled into its arguments as `{{mcpConfig}}`
 * and `{{prompt}}`. Its stdout is the transcript; the final message is its last line, or what
 * `outputFormat` reads from it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { finalAnswer } from "../judge/run.js";
import { type AgentHost, type AgentOutcome, NO_USAGE } from "./agent-host.js";

/** A case's `host: { type: command }` block. */
export interface CommandHostConfig {
  command: string[];
  /** Stop the command after this long (10 minutes by default): the trial fails. */
  timeoutMs?: number;
  /** `text` (the last non-empty line, the default), `all` (all of stdout), `json` (one JSON document), `stream-json` (JSON lines; the last that holds an answer). */
  outputFormat?: string;
}

/** The most stdout and stderr kept: an agent that prints without end cannot fill the memory. */
const OUTPUT_LIMIT = 1024 * 1024;

/** The answer in a JSON value: `result` (claude -p's JSON), `answer`, or the last assistant message. */
function answerOf(value: unknown): string | undefined {
  if (value && typeof value === "object" && !Array.isArray(value) && typeof (value as { result?: unknown }).result === "string") return (value as { result: string }).result;
  return finalAnswer(value);
}

/**
 * The final message in a command's stdout.
 *
 * @example readAnswer("thinking…\nClosed T-101.\n", "text") // "Closed T-101."
 */
export function readAnswer(stdout: string, format = "text"): string | undefined {
  switch (format) {
    case "all":
      return stdout.trim();
    case "json":
      try {
        return answerOf(JSON.parse(stdout));
      } catch {
        return undefined;
      }
    case "stream-json": {
      let answer: string | undefined;
      for (const line of stdout.split("\n")) {
        try {
          answer = answerOf(JSON.parse(line)) ?? answer;
        } catch {
          // Not every line of a stream need be JSON.
        }
      }
      return answer;
    }
    default:
      return stdout.split("\n").map((line) => line.trim()).filter((line) => line !== "").at(-1);
  }
}

const fill = (arg: string, values: Record<string, string>) => arg.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);

/** The tail of a stream, bounded. */
function collector() {
  let text = "";
  return {
    add(chunk: Buffer) {
      text += chunk.toString("utf8");
      if (text.length > OUTPUT_LIMIT) text = text.slice(-OUTPUT_LIMIT);
    },
    get text() {
      return text;
    },
  };
}

/**
 * A host running `config.command` once per trial. A command that cannot start or exits non-zero
 * lost the trial to infrastructure (not run); one that outlives `timeoutMs` is stopped and its
 * trial fails (judged on what it did, with the timeout as a failed assertion).
 *
 * @example const host = commandHost({ command: ["claude", "-p", "{{prompt}}", "--mcp-config", "{{mcpConfig}}"], timeoutMs: 300_000 });
 */
export function commandHost(config: CommandHostConfig): AgentHost {
  const [program, ...args] = config.command;
  if (program === undefined) throw new Error("[eval-simulate] a command host needs a command: [program, ...arguments]");
  const timeoutMs = config.timeoutMs ?? 600_000;
  return {
    label: `command:${basename(program)}`,
    async run(trial): Promise<AgentOutcome> {
      const dir = mkdtempSync(join(tmpdir(), "eval-simulate-trial-"));
      const mcpConfig = join(dir, "mcp.json");
      const servers = Object.fromEntries(trial.session.mcpServers().map((s) => [s.id, { type: "http", url: s.url }]));
      writeFileSync(mcpConfig, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
      const values = { prompt: trial.case.prompt ?? "", system: trial.case.system ?? "", mcpConfig, session: trial.session.id, case: trial.case.id, iteration: String(trial.iteration) };
      const free = (extra: Partial<AgentOutcome>): AgentOutcome => ({ requests: 0, usage: { ...NO_USAGE }, costUsd: 0, ...extra });
      try {
        return await new Promise<AgentOutcome>((resolve) => {
          const stdout = collector();
          const stderr = collector();
          const child = spawn(fill(program, values), args.map((arg) => fill(arg, values)), {
            stdio: ["ignore", "pipe", "pipe"],
            env: { ...process.env, EVAL_SIMULATE_MCP_CONFIG: mcpConfig, EVAL_SIMULATE_SESSION: trial.session.id },
          });
          let timedOut = false;
          const stop = () => {
            child.kill("SIGTERM");
            setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 2000).unref();
          };
          const timer = setTimeout(() => ((timedOut = true), stop()), timeoutMs);
          const onAbort = () => stop();
          trial.signal.addEventListener("abort", onAbort, { once: true });
          child.stdout.on("data", stdout.add);
          child.stderr.on("data", stderr.add);
          child.on("error", (error) => {
            clearTimeout(timer);
            trial.signal.removeEventListener("abort", onAbort);
            resolve(free({ outcome: { status: "not_run", reason: `the agent command ${program} could not start: ${error.message}` } }));
          });
          child.on("close", (code, signal) => {
            clearTimeout(timer);
            trial.signal.removeEventListener("abort", onAbort);
            const answer = readAnswer(stdout.text, config.outputFormat);
            const base = answer === undefined ? {} : { answer };
            if (timedOut) return resolve(free({ ...base, outcome: { status: "fail", reason: `the agent command did not finish within ${timeoutMs} ms and was stopped` } }));
            if (code !== 0) {
              const tail = stderr.text.trim().split("\n").slice(-3).join(" | ").slice(0, 500);
              return resolve(free({ ...base, outcome: { status: "not_run", reason: `the agent command exited ${code ?? signal}${tail ? `: ${tail}` : ""}` } }));
            }
            resolve(free(base));
          });
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
