import { type ArgsDef, defineCommand } from "citty";
import { AllowedHostError, parseAllowedHosts } from "../engine/serve/host/index.js";
import { FakeSelectionError, fakeList, loadFakes } from "../engine/author/fakes/index.js";
import { serveSidecar } from "../engine/serve/host/index.js";
import { ManifestError } from "../engine/author/source/index.js";
import { AllowedOriginError, bridgeStdio, parseAllowedOrigins } from "../engine/serve/mcp/index.js";
import { resultsPanel } from "../engine/eval/results/index.js";
import { UnknownScenarioError } from "../engine/author/world/index.js";
import { clockFlag, EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { manifestArgs, manifestOf } from "./manifest-arg.js";
import { renderText } from "./render-diagnostics.js";
import { repeatedFlag } from "./repeated-flag.js";
import { startTracing, stopTracing } from "../engine/serve/telemetry/index.js";

const args = {
  ...manifestArgs("The manifest to serve", "EVAL_SIMULATE_MANIFEST, default ./fakes.yaml"),
  port: { type: "string", description: "Port to listen on (EVAL_SIMULATE_PORT, default 7353; 0 picks a free one)" },
  host: { type: "string", description: "Address to listen on (EVAL_SIMULATE_HOST, default 0.0.0.0)" },
  fakes: {
    type: "string",
    description: "Serve only these fakes: a comma list of ids, or repeated (EVAL_SIMULATE_FAKES); a required one left out refuses to start",
    valueHint: "crm,mail",
  },
  scenario: { type: "string", description: "Scenario to serve (EVAL_SIMULATE_SCENARIO, default: the manifest's default)" },
  clock: { type: "string", description: "The clock, ISO 8601 (EVAL_SIMULATE_CLOCK, default now)" },
  "state-file": {
    type: "string",
    description:
      "Keep every fake's state here: each change appended to <file>.log, the whole world written now and then and at stop (EVAL_SIMULATE_STATE_FILE)",
  },
  "initial-state-file": { type: "string", description: "Write the starting state here (EVAL_SIMULATE_INITIAL_STATE_FILE)" },
  "resume-state-file": { type: "string", description: "Continue the run whose state file this is (EVAL_SIMULATE_RESUME_STATE_FILE)" },
  record: { type: "string", description: "Append each call as a JSON line here (EVAL_SIMULATE_RECORD)" },
  "state-dir": {
    type: "string",
    description: "Keep each session's state in <sid>.state.json and its .log, and write <sid>.initial.json at its start (EVAL_SIMULATE_STATE_DIR)",
  },
  "max-sessions": { type: "string", description: "How many sessions the host holds at once (EVAL_SIMULATE_MAX_SESSIONS, default 10000)" },
  "max-world-bytes": {
    type: "string",
    description:
      "The most bytes of JSON one world may hold (the process's own, each session's); a write past it is a tool error (EVAL_SIMULATE_MAX_WORLD_BYTES, default 67108864: 64 MiB)",
  },
  "manifest-dir": { type: "string", description: "Write each fake's manifest.json and answers.json here (EVAL_SIMULATE_MANIFEST_DIR)" },
  "allow-origin": {
    type: "string",
    description:
      "A browser origin the port serves besides loopback ones: scheme://host[:port], a host name, or *; repeatable or a comma list (EVAL_SIMULATE_ALLOWED_ORIGINS)",
  },
  "allow-host": {
    type: "string",
    description:
      "A host name the port answers to besides loopback names, IP literals and API fakes' hosts: a name, .name (it and every name below it), or *; repeatable or a comma list (EVAL_SIMULATE_ALLOWED_HOSTS)",
  },
  inspect: { type: "boolean", description: "Serve the inspector page at /_inspect, behind the admin token when set (EVAL_SIMULATE_INSPECT=1)" },
  "inspect-results": {
    type: "string",
    description: "An eval run's results file (NDJSON) whose pass rates the inspector shows (EVAL_SIMULATE_INSPECT_RESULTS)",
  },
  "run-dir": { type: "string", description: "A run folder: record.jsonl, initial-state.json, state.json and manifests/ (EVAL_SIMULATE_RUN_DIR)" },
  "allow-outside": { type: "boolean", description: "Also read files the manifest names outside its own folder (EVAL_SIMULATE_ALLOW_OUTSIDE=1)" },
  stdio: {
    type: "string",
    description:
      "Serve this MCP fake over stdin and stdout, for agent configs that start servers as commands (in MCP sessions); the port stays on loopback (port 0 unless given) for the admin routes, and what serve prints goes to stderr",
    valueHint: "fake",
  },
} satisfies ArgsDef;

/** Every value of a repeatable flag, or undefined when it is absent. */
function repeated(rawArgs: string[], flag: string): string[] | undefined {
  const values = repeatedFlag(rawArgs, flag);
  return values.length > 0 ? values : undefined;
}

/** `eval-simulate serve [fakes.yaml]`: every fake on one port until SIGTERM; with `--stdio <fake>`, that fake over stdio until stdin ends. */
export default defineCommand({
  meta: { name: "serve", description: "Serve every fake of a manifest on one port (a sidecar). Flags override EVAL_SIMULATE_* variables." },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    if (!clockFlag(parsed.clock).ok) return;
    let port: number | undefined;
    if (parsed.port !== undefined) {
      port = Number(parsed.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        process.stderr.write(`eval-simulate: --port takes a port number, not "${parsed.port}"\n`);
        process.exitCode = EXIT.usage;
        return;
      }
    }
    const allowedOrigins =
      repeated(rawArgs, "allow-origin") ?? (process.env.EVAL_SIMULATE_ALLOWED_ORIGINS ? [process.env.EVAL_SIMULATE_ALLOWED_ORIGINS] : undefined);
    const allowedHosts = repeated(rawArgs, "allow-host") ?? (process.env.EVAL_SIMULATE_ALLOWED_HOSTS ? [process.env.EVAL_SIMULATE_ALLOWED_HOSTS] : undefined);
    try {
      if (allowedOrigins) parseAllowedOrigins(allowedOrigins);
      if (allowedHosts) parseAllowedHosts(allowedHosts);
    } catch (error) {
      if (!(error instanceof AllowedOriginError) && !(error instanceof AllowedHostError)) throw error;
      process.stderr.write(`eval-simulate: ${error.message.replace(/^\[eval-simulate\] /, "")}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    // A container mounts its Recipe and names the manifest in the environment.
    const manifest = manifestOf("serve", parsed, 0, process.env.EVAL_SIMULATE_MANIFEST || "fakes.yaml");
    if (manifest === undefined) return;
    let maxSessions: number | undefined;
    if (parsed["max-sessions"] !== undefined) {
      maxSessions = Number(parsed["max-sessions"]);
      if (!Number.isInteger(maxSessions) || maxSessions < 1) {
        process.stderr.write(`eval-simulate: --max-sessions takes a positive integer, not "${parsed["max-sessions"]}"\n`);
        process.exitCode = EXIT.usage;
        return;
      }
    }
    let maxWorldBytes: number | undefined;
    if (parsed["max-world-bytes"] !== undefined) {
      maxWorldBytes = Number(parsed["max-world-bytes"]);
      if (!Number.isSafeInteger(maxWorldBytes) || maxWorldBytes < 1) {
        process.stderr.write(`eval-simulate: --max-world-bytes takes a positive integer, not "${parsed["max-world-bytes"]}"\n`);
        process.exitCode = EXIT.usage;
        return;
      }
    }
    let loaded: Awaited<ReturnType<typeof loadFakes>>;
    try {
      loaded = await loadFakes(manifest, { clock: parsed.clock, ...(parsed["allow-outside"] ? { allowOutside: true } : {}) });
    } catch (error) {
      if (!(error instanceof ManifestError)) throw error;
      process.stderr.write(renderText([{ file: manifest, valid: false, diagnostics: error.diagnostics }]));
      process.exitCode = error.diagnostics.some((d) => d.code === "E_IO" && d.path === "(root)") ? EXIT.usage : EXIT.invalid;
      return;
    }
    const fakes = repeated(rawArgs, "fakes");
    const stdio = parsed.stdio;
    if (stdio !== undefined) {
      const fake = loaded.fakes[stdio];
      if (fake?.kind !== "mcp") {
        const ids = Object.entries(loaded.fakes)
          .filter(([, f]) => f.kind === "mcp")
          .map(([id]) => id);
        process.stderr.write(`eval-simulate: --stdio names an MCP fake of the manifest, not "${stdio}" (its MCP fakes: ${ids.join(", ") || "none"})\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      // stdio is one connection: a session, in which the fake can ask the client and push updates.
      loaded = { ...loaded, fakes: { ...loaded.fakes, [stdio]: { ...fake, manifest: { ...fake.manifest, sessions: true } } } };
    }
    // OTEL_EXPORTER_OTLP_ENDPOINT and the rest turn on a span per request (docs/tracing.md).
    const tracing = await startTracing(process.env, "eval-simulate-serve");
    if (tracing.warning) process.stderr.write(`eval-simulate: ${tracing.warning.replace(/^\[eval-simulate\] /, "")}\n`);
    let services: Awaited<ReturnType<typeof serveSidecar>>;
    try {
      services = await serveSidecar(loaded.fakes, loaded.world, {
        ...(fakes ? { fakes: fakeList(fakes) } : {}),
        port: port ?? (stdio !== undefined && !process.env.EVAL_SIMULATE_PORT ? 0 : undefined),
        host: parsed.host ?? (stdio !== undefined && !process.env.EVAL_SIMULATE_HOST ? "127.0.0.1" : undefined),
        scenario: parsed.scenario,
        clock: parsed.clock,
        stateFile: parsed["state-file"],
        initialStateFile: parsed["initial-state-file"],
        resumeStateFile: parsed["resume-state-file"],
        record: parsed.record,
        manifestDir: parsed["manifest-dir"],
        allowedOrigins,
        allowedHosts,
        inspect: parsed.inspect || undefined,
        inspectResults: parsed["inspect-results"],
        inspectResultsReader: resultsPanel,
        stateDir: parsed["state-dir"],
        maxSessions,
        maxWorldBytes,
        runDir: parsed["run-dir"],
      });
    } catch (error) {
      // A refusal to start (an unknown scenario or fake, a required fake left out, a world or
      // resume lacking a fake, a port in use) is said plainly; a name the caller got wrong is a
      // usage error, the rest the setup's.
      process.stderr.write(`eval-simulate: cannot serve: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
      const misnamed = error instanceof UnknownScenarioError || (error instanceof FakeSelectionError && error.problem !== "required");
      process.exitCode = misnamed ? EXIT.usage : EXIT.invalid;
      return;
    }
    const lines = [`eval-simulate serving scenario "${services.scenario}" at http://${services.host}:${services.port} (clock ${services.clock})`];
    for (const server of services.mcpServers()) lines.push(`  ${server.id.padEnd(16)} ${server.url}`);
    for (const id of services.served) {
      const fake = loaded.fakes[id];
      if (fake.kind !== "api") continue;
      const hosts = fake.manifest.hosts.length > 0 ? ` (and Host: ${fake.manifest.hosts.join(", ")})` : "";
      lines.push(`  ${id.padEnd(16)} ${services.baseUrl(id)}${hosts}`);
    }
    lines.push(`  ${"sessions".padEnd(16)} ${services.origin}/sessions (POST one per trial)`);
    lines.push(`  ${"health".padEnd(16)} ${services.origin}/health`);
    if (services.inspector) lines.push(`  ${"inspector".padEnd(16)} ${services.origin}/_inspect`);
    if (stdio === undefined) {
      process.stdout.write(`${lines.join("\n")}\n`);
      return;
    }
    // stdout carries the protocol alone; the lines a person reads go to stderr.
    process.stderr.write(`${lines.join("\n")}\n  ${"stdio".padEnd(16)} ${stdio} on stdin and stdout\n`);
    let bridge: Awaited<ReturnType<typeof bridgeStdio>>;
    try {
      bridge = await bridgeStdio(services.url(stdio), { onerror: (error) => process.stderr.write(`eval-simulate: stdio: ${error.message}\n`) });
    } catch (error) {
      process.stderr.write(`eval-simulate: cannot serve over stdio: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
      await services.close();
      process.exit(EXIT.invalid);
    }
    await bridge.closed;
    await services.close();
    // The spans still batched are sent (within a bounded wait) before the exit ends them.
    await stopTracing();
    process.exit(process.exitCode ?? 0);
  },
});
