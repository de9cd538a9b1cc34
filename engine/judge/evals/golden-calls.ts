/**
 * How a golden call is replayed on each kind of fake: the judging layer's registry, keyed by the
 * same names as the author layer's `FAKE_KINDS`. Calls go through the fakes' own handlers (no
 * stubs, no faults, no HTTP): an MCP tool through the runtime's pipeline, an API operation
 * through its router; an emulate built-in's state is emulate's, so it is not replayed.
 */
import { handleApiRequest } from "../../serve/api/index.js";
import type { ApiFake, Fake, FakeKindName, McpFake } from "../../author/fakes/index.js";
import { callTool, type RuntimeScope } from "../../serve/runtime/index.js";
import { compiledApi, compiledServer } from "./fresh-world.js";
import { show } from "./match-value.js";

/** One call of a golden path, on the fake and tool the fake maps resolved it to. */
export interface GoldenCall {
  server: string;
  tool: string;
  args: Record<string, unknown>;
}

/** Why a golden call did not go through: it `failed` (the fake answered an error) or `cannot` be replayed. */
export type GoldenCallProblem = { failed: string } | { cannot: string };

/** How one kind of fake replays a golden call in a scope; undefined when it went through. */
export interface GoldenReplay<F extends Fake = Fake> {
  replay(scope: RuntimeScope, fake: F, call: GoldenCall): Promise<GoldenCallProblem | undefined>;
}

const textOf = (result: { content?: Array<{ text?: string }> }) => result.content?.map((c) => c.text ?? "").join("\n") ?? "";

/** The URL of an API call from its operation's path template and the call's `params` and `query`. */
function apiUrl(id: string, basePath: string, template: string, args: Record<string, unknown>): string {
  const params = (args.params ?? {}) as Record<string, unknown>;
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? "")));
  const url = new URL(`http://golden.invalid/${id}${basePath}${path}`);
  for (const [name, value] of Object.entries((args.query ?? {}) as Record<string, unknown>)) url.searchParams.set(name, String(value));
  return url.href;
}

const mcpReplay: GoldenReplay<McpFake> = {
  async replay(scope, fake, { tool, args }) {
    const outcome = await callTool(scope, compiledServer(fake.manifest), tool, args, new AbortController().signal);
    return outcome.result.isError ? { failed: textOf(outcome.result as { content?: Array<{ text?: string }> }) } : undefined;
  },
};

const apiReplay: GoldenReplay<ApiFake> = {
  async replay(scope, fake, { server, tool, args }) {
    const api = compiledApi(fake.manifest);
    const operation = fake.manifest.operations.find((op) => op.name === tool);
    if (!operation) return { cannot: `${server} has no operation ${tool}` };
    const hasBody = args.body !== undefined;
    const request = new Request(apiUrl(server, api.basePath, operation.pathTemplate, args), {
      method: operation.method.toUpperCase(),
      headers: { ...(hasBody ? { "content-type": "application/json" } : {}), ...((args.headers ?? {}) as Record<string, string>) },
      ...(hasBody ? { body: JSON.stringify(args.body) } : {}),
    });
    const { outcome } = await handleApiRequest(scope, api, request, { prefix: `/${server}`, origin: "http://golden.invalid" });
    return outcome.response.status >= 400 ? { failed: `HTTP ${outcome.response.status} ${outcome.error ?? show(outcome.response.body)}` } : undefined;
  },
};

const emulateReplay: GoldenReplay<ApiFake> = {
  async replay(_scope, fake, { server }) {
    return { cannot: `${server} is emulate's ${fake.manifest.emulate}, whose state is not replayed` };
  },
};

/** Every kind's golden replay, by kind name. */
export const GOLDEN_REPLAYS: Readonly<Record<FakeKindName, GoldenReplay>> = { mcp: mcpReplay, api: apiReplay, emulate: emulateReplay };
