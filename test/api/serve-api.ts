/**
 * Test support for API fakes: a fixture's manifest loaded through the real loader, its API
 * compiled, its world in a StateStore, and `handleApiRequest` served on a real ephemeral port
 * by a tiny host that strips the `/<id>` prefix (or serves by Host, as the real host will).
 */
import { compileApi, handleApiRequest, type ApiCallOutcome, type CompiledApi } from "../../engine/serve/api/index.js";
import { compileJsonataHandler, type JsonataHandlerSpec } from "../../engine/author/handlers/jsonata-index.js";
import type { OperationHandler } from "../../engine/author/handlers/typescript-handlers.js";
import { listen } from "../../engine/serve/http/http-listen.js";
import { checkManifest } from "../../engine/author/manifest/load-manifest.js";
import { StateStore } from "../../engine/serve/runtime/state-store.js";

export const CLOCK = "2026-10-01T09:00:00.000Z";
export const GITHUB = new URL("../fixtures/api-github/fakes.yaml", import.meta.url).pathname;
export const GRAPH = new URL("../fixtures/api-graph/fakes.yaml", import.meta.url).pathname;

/** One API fake on a real port. */
export interface ServedApi {
  /** `http://127.0.0.1:<port>/<id>`: the fake addressed by path. */
  url: string;
  /** `url` and the document's base path: what a client is given as its base URL. */
  baseUrl: string;
  api: CompiledApi;
  store: StateStore;
  /** Every request's outcome, in the order they finished. */
  outcomes: ApiCallOutcome[];
  /** Serves a Request in-process, as the host does (by Host when it names one of the hosts). */
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/** Loads a fixture manifest and serves its API `id`. */
export async function serveApi(manifestFile: string, id: string): Promise<ServedApi> {
  const { manifest, diagnostics } = await checkManifest(manifestFile, { clock: CLOCK });
  if (!manifest) throw new Error(`the fixture does not load:\n${diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`).join("\n")}`);
  const declared = manifest.apis.find((a) => a.id === id);
  if (!declared) throw new Error(`the fixture has no api ${id}`);
  const api = compileApi(declared);
  const world = (await manifest.world.build(undefined, new Date(CLOCK))) as Record<string, Record<string, unknown>>;
  const store = new StateStore({ [id]: world[id] });
  const outcomes: ApiCallOutcome[] = [];
  const scope = { store, now: CLOCK, scenario: manifest.defaultScenario };
  const host = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const byHost = api.manifest.hosts.includes(url.hostname);
    const prefix = `/${id}`;
    if (!byHost && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return new Response("not this fake", { status: 404 });
    const { response, outcome } = await handleApiRequest(scope, api, request, { prefix: byHost ? "" : prefix, origin: url.origin });
    outcomes.push(outcome);
    return response;
  };
  const listening = await listen(host, { port: 0 });
  const url = `${listening.url}/${id}`;
  return { url, baseUrl: url + api.basePath, api, store, outcomes, fetch: host, close: () => listening.close() };
}

/** A JSON request's init. */
export function json(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/**
 * Replaces an operation's handler in a served API: a JSONata expression or block (blocks with
 * `set` are not yet accepted by the manifest schema for API operations), or a function.
 */
export function replaceHandler(served: ServedApi, name: string, handler: JsonataHandlerSpec | OperationHandler): void {
  const operation = served.api.operations.get(name);
  if (!operation) throw new Error(`no operation ${name}`);
  const source = operation.manifest.source;
  if (typeof handler === "function") {
    operation.manifest = { ...operation.manifest, handler: { kind: "module", fn: handler, file: "test", source } };
    return;
  }
  const compiled = compileJsonataHandler(handler);
  if (!compiled.ok) throw new Error(compiled.errors.map((e) => e.message).join("; "));
  operation.manifest = { ...operation.manifest, handler: { kind: "jsonata", jsonata: compiled.handler, source } };
}
