/**
 * The command host: any agent CLI, given the trial's MCP servers as a JSON config file (the
 * `mcpServers` shape agents read) and the prompt, filled into its arguments as `{{mcpConfig}}`
 * and `{{prompt}}` (or `{{prompt:sh}}`, quoted as one word for a shell's `-c` line). Its stdout
 * is the transcript; the final message is its last line, or what `outputFormat` reads from it.
 * In a conversation it runs once per turn: `{{turn}}`, and `{{resume}}` (the `resume` arguments
 * from the second turn on, for a CLI's `--continue`), or a fresh start each turn given the
 * conversation so far (`{{transcript}}` as text, `{{transcriptFile}}` as JSON).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { finalAnswer } from "../../judge/evals/index.js";
import { type AgentHost, type AgentOutcome, type AgentTrial, NO_USAGE } from "./agent-host.js";
import type { TranscriptMessage } from "./agent-turn.js";
import { processGroup } from "./process-group.js";

/** A case's `host: { type: command }` block. */
export interface CommandHostConfig {
  command: string[];
  /** Stop the command after this long (10 minutes by default): the trial fails. */
  timeoutMs?: number;
  /** `text` (the last non-empty line, the default), `all` (all of stdout), `json` (one JSON document), `stream-json` (JSON lines; the last that holds an answer). */
  outputFormat?: string;
  /**
   * In a conversation, the arguments an argument `{{resume}}` stands for from the second turn on
   * (none on the first), e.g. `["--continue"]` or `["--resume", "{{session}}"]`.
   */
  resume?: string[];
}

/** The most of a transcript `{{transcript}}` gives as text (its end): a command line has a length limit. */
const TRANSCRIPT_TEXT_LIMIT = 64 * 1024;

/**
 * The conversation so far as plain text, one line per message, its last 64 KiB.
 *
 * @example transcriptText([{ turn: 1, role: "user", content: "Hi" }]) // "user: Hi"
 */
export function transcriptText(messages: readonly TranscriptMessage[]): string {
  const lines = messages.map((m) => {
    if (m.role === "tool") return `tool ${m.name ?? ""}${m.isError ? " (error)" : ""}: ${JSON.stringify(m.result ?? null)}`;
    const speaker = m.role === "user" ? "user" : "assistant";
    if (m.toolCalls) return m.toolCalls.map((call) => `${speaker} called ${call.name} ${JSON.stringify(call.args ?? {})}`).join("\n");
    return `${speaker}: ${m.content ?? ""}`;
  });
  const text = lines.join("\n");
  return text.length > TRANSCRIPT_TEXT_LIMIT ? text.slice(-TRANSCRIPT_TEXT_LIMIT) : text;
}

/** The most stdout and stderr kept: an agent that prints without end cannot fill the memory. */
const OUTPUT_LIMIT = 1024 * 1024;

/** How long the output is read after the agent exits, when something it started still holds it. */
const EXIT_GRACE_MS = 1000;

/** The answer in a JSON value: `result` (claude -p's JSON), `answer`, or the last assistant message. */
function answerOf(value: unknown): string | undefined {
  if (value && typeof value === "object" && !Array.isArray(value) && typeof (value as { result?: unknown }).result === "string")
    return (value as { result: string }).result;
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
      return stdout
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "")
        .at(-1);
  }
}

/** A value as one POSIX shell word: single-quoted, each `'` closed, escaped and reopened. */
const shellQuote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/** `{{name}}` is the value as it is; `{{name:sh}}` is the value quoted for a shell command line. */
const fill = (arg: string, values: Record<string, string>) =>
  arg.replace(/\{\{(\w+)(:sh)?\}\}/g, (whole, name: string, sh?: string) =>
    Object.hasOwn(values, name) ? (sh ? shellQuote(values[name]!) : values[name]!) : whole,
  );

/** A dummy key: the agent's SDKs want one, and the fakes' model endpoints never read it. */
const DUMMY_KEY = "eval-simulate-no-key";

/**
 * The agent's model, pointed at the trial's model endpoints when its case has a `models:` block:
 * the base URLs as the providers' SDKs read them, and dummy keys (the real key, when a recording
 * needs one, stays with the runner).
 */
function modelEnv(trial: AgentTrial): Record<string, string> {
  if (!trial.models) return {};
  return {
    OPENAI_BASE_URL: trial.models.openai,
    OPENAI_API_KEY: DUMMY_KEY,
    ANTHROPIC_BASE_URL: trial.models.anthropic,
    ANTHROPIC_API_KEY: DUMMY_KEY,
  };
}

/** The tail of a stream, bounded. Decoded across reads: a character's bytes may arrive in two. */
function collector() {
  let text = "";
  const decoder = new StringDecoder("utf8");
  return {
    add(chunk: Buffer) {
      text += decoder.write(chunk);
      if (text.length > OUTPUT_LIMIT) text = text.slice(-OUTPUT_LIMIT);
    },
    get text() {
      return text;
    },
  };
}

/**
 * A host running `config.command` once per trial, in a process group of its own that is killed
 * when the trial ends (SIGTERM, then SIGKILL). A command that cannot start or exits non-zero
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
      const turn = trial.turn;
      const transcriptFile = join(dir, "transcript.json");
      if (turn) writeFileSync(transcriptFile, `${JSON.stringify(turn.transcript)}\n`);
      const values = {
        turn: String(turn?.number ?? 1),
        transcript: turn ? transcriptText(turn.transcript) : (trial.case.prompt ?? ""),
        transcriptFile: turn ? transcriptFile : "",
        prompt: trial.case.prompt ?? "",
        system: trial.case.system ?? "",
        mcpConfig,
        session: trial.session.id,
        case: trial.case.id,
        iteration: String(trial.iteration),
        openaiBaseUrl: trial.models?.openai ?? "",
        anthropicBaseUrl: trial.models?.anthropic ?? "",
      };
      const free = (extra: Partial<AgentOutcome>): AgentOutcome => ({ requests: 0, usage: { ...NO_USAGE }, costUsd: 0, ...extra });
      try {
        return await new Promise<AgentOutcome>((resolve) => {
          const stdout = collector();
          const stderr = collector();
          // A group of its own, so a timeout or an abort stops every process the agent started.
          // `{{resume}}` is the resume arguments after the first turn, and nothing before it.
          const resumed = (turn?.number ?? 1) > 1 ? (config.resume ?? []) : [];
          const child = spawn(
            fill(program, values),
            args.flatMap((arg) => (arg === "{{resume}}" ? resumed : [arg])).map((arg) => fill(arg, values)),
            {
              stdio: ["ignore", "pipe", "pipe"],
              detached: true,
              env: {
                ...process.env,
                EVAL_SIMULATE_MCP_CONFIG: mcpConfig,
                EVAL_SIMULATE_SESSION: trial.session.id,
                // The trial's trace, continued by an agent that reads TRACEPARENT (the OpenTelemetry convention for processes).
                ...(trial.traceparent ? { TRACEPARENT: trial.traceparent } : {}),
                ...modelEnv(trial),
              },
            },
          );
          const group = processGroup(child);
          let timedOut = false;
          let settled = false;
          let grace: NodeJS.Timeout | undefined;
          const timer = setTimeout(() => ((timedOut = true), group.stop()), timeoutMs);
          const onAbort = () => group.stop();
          trial.signal.addEventListener("abort", onAbort, { once: true });
          if (trial.signal.aborted) onAbort();
          const finish = (outcome: AgentOutcome) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            clearTimeout(grace);
            trial.signal.removeEventListener("abort", onAbort);
            // Whatever the agent left running ends with its trial.
            group.stop();
            child.stdout.destroy();
            child.stderr.destroy();
            resolve(outcome);
          };
          child.stdout.on("data", stdout.add);
          child.stderr.on("data", stderr.add);
          child.on("error", (error) =>
            finish(free({ outcome: { status: "not_run", reason: `the agent command ${program} could not start: ${error.message}` } })),
          );
          const ended = (code: number | null, signal: NodeJS.Signals | null) => {
            const answer = readAnswer(stdout.text, config.outputFormat);
            const base = answer === undefined ? {} : { answer };
            if (timedOut)
              return finish(free({ ...base, outcome: { status: "fail", reason: `the agent command did not finish within ${timeoutMs} ms and was stopped` } }));
            if (code !== 0) {
              const tail = stderr.text.trim().split("\n").slice(-3).join(" | ").slice(0, 500);
              return finish(free({ ...base, outcome: { status: "not_run", reason: `the agent command exited ${code ?? signal}${tail ? `: ${tail}` : ""}` } }));
            }
            finish(free(base));
          };
          // Its output is read to the end, unless a process it left behind holds the pipes open:
          // then what arrived within EXIT_GRACE_MS of its exit is all there is.
          child.on("exit", (code, signal) => (grace = setTimeout(() => ended(code, signal), EXIT_GRACE_MS)));
          child.on("close", ended);
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
