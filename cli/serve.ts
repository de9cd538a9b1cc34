import { type ArgsDef, defineCommand } from "citty";
import { loadFakes } from "../engine/host/load-fakes.js";
import { serveSidecar } from "../engine/host/sidecar.js";
import { ManifestError } from "../engine/manifest/diagnostic.js";
import { UnknownScenarioError } from "../engine/world/index.js";
import { clockFlag, EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { renderText } from "./render-diagnostics.js";

const args = {
  manifest: { type: "positional", required: false, default: "fakes.yaml", description: "The manifest to serve", valueHint: "fakes.yaml" },
  port: { type: "string", description: "Port to listen on (EVAL_SIMULATE_PORT, default 7353; 0 picks a free one)" },
  host: { type: "string", description: "Address to listen on (EVAL_SIMULATE_HOST, default 0.0.0.0)" },
  scenario: { type: "string", description: "Scenario to serve (EVAL_SIMULATE_SCENARIO, default: the manifest's default)" },
  clock: { type: "string", description: "The clock, ISO 8601 (EVAL_SIMULATE_CLOCK, default now)" },
  "state-file": { type: "string", description: "Write every fake's state here after each change (EVAL_SIMULATE_STATE_FILE)" },
  "initial-state-file": { type: "string", description: "Write the starting state here (EVAL_SIMULATE_INITIAL_STATE_FILE)" },
  "resume-state-file": { type: "string", description: "Continue the run whose state file this is (EVAL_SIMULATE_RESUME_STATE_FILE)" },
  record: { type: "string", description: "Append each call as a JSON line here (EVAL_SIMULATE_RECORD)" },
  "manifest-dir": { type: "string", description: "Write each fake's manifest.json and answers.json here (EVAL_SIMULATE_MANIFEST_DIR)" },
  "allow-outside": { type: "boolean", description: "Also read files the manifest names outside its own folder (EVAL_SIMULATE_ALLOW_OUTSIDE=1)" },
} satisfies ArgsDef;

/** `eval-simulate serve [fakes.yaml]`: every fake on one port until SIGTERM. */
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
    let loaded: Awaited<ReturnType<typeof loadFakes>>;
    try {
      loaded = await loadFakes(parsed.manifest ?? "fakes.yaml", { clock: parsed.clock, ...(parsed["allow-outside"] ? { allowOutside: true } : {}) });
    } catch (error) {
      if (!(error instanceof ManifestError)) throw error;
      process.stderr.write(renderText([{ file: parsed.manifest ?? "fakes.yaml", valid: false, diagnostics: error.diagnostics }]));
      process.exitCode = error.diagnostics.some((d) => d.code === "E_IO" && d.path === "(root)") ? EXIT.usage : EXIT.invalid;
      return;
    }
    let services: Awaited<ReturnType<typeof serveSidecar>>;
    try {
      services = await serveSidecar(loaded.fakes, loaded.world, {
      port,
      host: parsed.host,
      scenario: parsed.scenario,
      clock: parsed.clock,
      stateFile: parsed["state-file"],
      initialStateFile: parsed["initial-state-file"],
      resumeStateFile: parsed["resume-state-file"],
      record: parsed.record,
      manifestDir: parsed["manifest-dir"],
      });
    } catch (error) {
      // A refusal to start (an unknown scenario, a world or resume lacking a fake, a port in use)
      // is said plainly; an unknown scenario is the caller's mistake, the rest the setup's.
      process.stderr.write(`eval-simulate: cannot serve: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
      process.exitCode = error instanceof UnknownScenarioError ? EXIT.usage : EXIT.invalid;
      return;
    }
    const lines = [`eval-simulate serving scenario "${services.scenario}" at http://${services.host}:${services.port} (clock ${services.clock})`];
    for (const server of services.mcpServers()) lines.push(`  ${server.id.padEnd(16)} ${server.url}`);
    for (const [id, fake] of Object.entries(loaded.fakes)) {
      if (fake.kind !== "api") continue;
      const hosts = fake.manifest.hosts.length > 0 ? ` (and Host: ${fake.manifest.hosts.join(", ")})` : "";
      lines.push(`  ${id.padEnd(16)} ${services.baseUrl(id)}${hosts}`);
    }
    lines.push(`  ${"health".padEnd(16)} ${services.origin}/health`);
    process.stdout.write(`${lines.join("\n")}\n`);
  },
});
