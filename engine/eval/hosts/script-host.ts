/**
 * The script host: no model; the case's `script` (tool calls and a final message) is played
 * through the same wire path an agent uses (MCP over HTTP to the session's URLs, HTTP to an API
 * fake's session base URL), so its record and world are what an agent making those calls gets.
 */
import { answerWith, answererCapabilities, type ClientAnswerer } from "./client-answers.js";
import { trialAnswerer } from "./user-answers.js";
import type { Client } from "@modelcontextprotocol/client";
import { fakeMaps } from "../../judge/evals/index.js";
import { type AgentHost, type AgentOutcome, type AgentTrial, NO_USAGE } from "./agent-host.js";

type ScriptCall = { tool: string; arguments?: Record<string, unknown> };

const free = (answer: string | undefined, outcome?: AgentOutcome["outcome"]): AgentOutcome => ({
  ...(answer === undefined ? {} : { answer }),
  requests: 0,
  usage: { ...NO_USAGE },
  costUsd: 0,
  ...(outcome ? { outcome } : {}),
});

/** An API operation's request from a script call's `{ params, query, headers, body }`. */
function apiRequest(base: string, method: string, template: string, args: Record<string, unknown>, signal: AbortSignal): Request {
  const params = (args.params ?? {}) as Record<string, unknown>;
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? "")));
  const url = new URL(`${base.replace(/\/+$/, "")}${path}`);
  for (const [name, value] of Object.entries((args.query ?? {}) as Record<string, unknown>)) url.searchParams.set(name, String(value));
  const hasBody = args.body !== undefined;
  return new Request(url, {
    method: method.toUpperCase(),
    headers: { ...(hasBody ? { "content-type": "application/json" } : {}), ...((args.headers ?? {}) as Record<string, string>) },
    ...(hasBody ? { body: JSON.stringify(args.body) } : {}),
    signal,
  });
}

/**
 * Plays the case's script. A tool that answers an error does not stop it (the judge sees the
 * failed call, as it would an agent's); a name no fake serves, or a case without a script, makes
 * the trial fail with the reason, since the case itself is broken.
 *
 * @example const host = scriptHost(); await host.run({ case, iteration: 0, session, fakes, signal });
 */
export function scriptHost(): AgentHost {
  return {
    label: "script",
    async run(trial: AgentTrial): Promise<AgentOutcome> {
      const script = trial.case.script;
      if (!script) return free(undefined, { status: "fail", reason: `case ${trial.case.id} has no script to play (add script: { calls, answer })` });
      const maps = fakeMaps(trial.fakes);
      // In a conversation the MCP clients stay connected from turn to turn (the runner frees them: endConversation).
      const carried = trial.turn?.carry instanceof ScriptClients ? trial.turn.carry : undefined;
      const clients = carried?.clients ?? new Map<string, Promise<Client>>();
      let kept = false;
      // The clients outlive a turn, so they ask whoever answers this turn (it reads this turn's transcript).
      const answering = carried?.answering ?? { current: undefined as ClientAnswerer | undefined };
      // The case's `client:` answers are one queue for the whole conversation; a user's answerer is the turn's.
      if (!(carried && trial.case.client)) answering.current = trialAnswerer(trial);
      const answerer = answering.current && turnAnswerer(answering);
      const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
      const connect = (server: string) => {
        let client = clients.get(server);
        if (!client) {
          client = (async () => {
            // The fakes' questions (elicitation, sampling): the case's `client:`, else a model user (trialAnswerer).
            const made = new Client({ name: "eval-simulate-script", version: "1.0.0" }, { capabilities: answererCapabilities(answerer) });
            answerWith(made, server, answerer, trial.signal);
            await made.connect(new StreamableHTTPClientTransport(new URL(trial.session.url(server))));
            return made;
          })();
          clients.set(server, client);
        }
        return client;
      };
      try {
        for (const [i, call] of (script.calls as ScriptCall[]).entries()) {
          if (trial.signal.aborted) break;
          const found = maps.resolve(call.tool);
          if (found.length !== 1) {
            const why = found.length === 0 ? "no fake serves this tool" : `it is ambiguous (${found.map((f) => `${f.server}/${f.tool}`).join(", ")})`;
            return free(script.answer, { status: "fail", reason: `script call #${i + 1} ${call.tool}: ${why}` });
          }
          const { server, tool } = found[0];
          if (!trial.session.fakes.includes(server))
            return free(script.answer, {
              status: "fail",
              reason: `script call #${i + 1} ${call.tool}: ${server} is not among the case's fakes (${trial.session.fakes.join(", ")})`,
            });
          const fake = trial.fakes.fakes[server];
          const args = call.arguments ?? {};
          if (fake.kind === "mcp") {
            const client = await connect(server);
            // A JSON-RPC error (a tool the fake refuses) is in the record already; the script goes on.
            // Traced, each call continues the trial's trace (`_meta.traceparent`, as MCP carries it).
            const meta = trial.traceparent ? { _meta: { traceparent: trial.traceparent } } : {};
            await client.callTool({ name: tool, arguments: args, ...meta }, { signal: trial.signal }).catch(() => undefined);
            continue;
          }
          const operation = fake.manifest.operations.find((op) => op.name === tool);
          if (!operation) return free(script.answer, { status: "fail", reason: `script call #${i + 1} ${call.tool}: ${server} has no operation ${tool}` });
          const request = apiRequest(trial.session.baseUrl(server), operation.method, operation.pathTemplate, args, trial.signal);
          if (trial.traceparent) request.headers.set("traceparent", trial.traceparent);
          const response = await fetch(request);
          await response.arrayBuffer();
        }
        if (!trial.turn || trial.signal.aborted) return free(script.answer);
        kept = true;
        return { ...free(script.answer), carry: carried ?? new ScriptClients(clients, answering) };
      } finally {
        if (!kept) await closeClients(clients);
      }
    },
    async endConversation(carry) {
      if (carry instanceof ScriptClients) await closeClients(carry.clients);
    },
  };
}

/** A conversation's MCP clients, kept from one turn to the next. */
class ScriptClients {
  constructor(
    readonly clients: Map<string, Promise<Client>>,
    readonly answering: { current?: ClientAnswerer },
  ) {}
}

/** Answers by the turn's answerer at the time of the question, offering what the first one could (the capabilities are fixed at connect). */
function turnAnswerer(answering: { current?: ClientAnswerer }): ClientAnswerer {
  const first = answering.current;
  return {
    ...(first?.elicit && {
      elicit: async (question, signal) => (answering.current?.elicit ? answering.current.elicit(question, signal) : { action: "decline" as const }),
    }),
    ...(first?.sample && {
      sample: async (question, signal) => {
        if (!answering.current?.sample) throw new Error("[eval-simulate] nobody answers sampling in this turn (give the case client.sampling)");
        return answering.current.sample(question, signal);
      },
    }),
  };
}

async function closeClients(clients: Map<string, Promise<Client>>): Promise<void> {
  await Promise.allSettled([...clients.values()].map(async (client) => (await client).close()));
  clients.clear();
}
