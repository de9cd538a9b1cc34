/**
 * `resources/read` on a fake: the served resource (by exact `uri`) or resource template (by its
 * `uriTemplate`'s `{variable}`s) answered from the fake's committed state by its handler, which
 * reads and never writes.
 */
import { runJsonataHandler } from "../../author/handlers/index.js";
import type { ResourceManifest } from "../../author/model/index.js";
import { labelId } from "../../author/world/index.js";
import type { CompiledServer } from "./compiled-fake.js";
import { withTimeout } from "./deadline.js";
import type { RuntimeScope } from "./call-tool.js";
import { toolContext } from "./tool-context.js";

/** A `resources/read` result: the resource's contents. */
export interface ResourceContents {
  contents: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/** Thrown for a URI no served resource or template matches (the SDK's -32602 "Resource <uri> not found"). */
export class ResourceNotFoundError extends Error {
  constructor(readonly uri: string) {
    super(`Resource ${uri} not found`);
    this.name = "ResourceNotFoundError";
  }
}

/** A template's variables read from a URI (RFC 6570 simple `{name}` expansion), or undefined when it does not match. */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.split(/(\{[^}]+\})/).map((part) => {
    const name = /^\{([^}]+)\}$/.exec(part)?.[1];
    if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    names.push(name.replace(/^[+#]/, ""));
    return name.startsWith("+") || name.startsWith("#") ? "(.+)" : "([^/?#]+)";
  });
  const match = new RegExp(`^${pattern.join("")}$`).exec(uri);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
}

function find(fake: CompiledServer, uri: string): { resource: ResourceManifest; variables: Record<string, string> } | undefined {
  const resources = fake.manifest.resources ?? [];
  const exact = resources.find((r) => !r.template && r.key === uri);
  if (exact) return { resource: exact, variables: {} };
  for (const resource of resources.filter((r) => r.template)) {
    const variables = matchTemplate(resource.key, uri);
    if (variables) return { resource, variables };
  }
  return undefined;
}

/**
 * Reads one resource of a fake from its committed state. A string answer is the resource's text
 * (with its captured `mimeType`); `{ contents: [...] }` is sent as it is; any other value is
 * written as JSON. Throws `ResourceNotFoundError` for a URI the fake does not serve.
 *
 * @example await readResource(scope, fake, "memory://knowledge-graph", signal);
 */
export async function readResource(scope: RuntimeScope, fake: CompiledServer, uri: string, signal: AbortSignal): Promise<ResourceContents> {
  const found = find(fake, uri);
  if (!found) throw new ResourceNotFoundError(uri);
  const { resource, variables } = found;
  const args = { uri, ...variables };
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const run = async () => {
      const { handler } = resource;
      if (handler.kind === "jsonata") {
        const ran = await runJsonataHandler(
          handler.jsonata,
          { args, state: scope.store.snapshot(fake.id), world: scope.store.states, now: scope.now, scenario: scope.scenario, labelId, log: () => {} },
          { timeoutMs: fake.timeoutMs, signal: controller.signal },
        );
        if (ran.kind === "fail") throw new Error(ran.message);
        return { result: ran.value };
      }
      // A resource handler gets a tool handler's context over the committed (frozen) state, so it
      // cannot change anything; its `answer` helper writes JSON, as a resource's value is written.
      const context = toolContext({ manifest: { answer: { format: "json" } } } as never, {
        state: scope.store.snapshot(fake.id),
        world: scope.store.view,
        now: scope.now,
        scenario: scope.scenario,
        signal: controller.signal,
        logs: [],
        fake: fake.id,
      });
      return { result: await handler.fn(args, context) };
    };
    const { result } = await withTimeout(run(), fake.timeoutMs, controller, `${fake.id}/${uri}`);
    return contentsOf(result, uri, resource.captured.mimeType as string | undefined);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function contentsOf(value: unknown, uri: string, mimeType: string | undefined): ResourceContents {
  if (value && typeof value === "object" && Array.isArray((value as ResourceContents).contents)) return value as ResourceContents;
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "null");
  return { contents: [{ uri, ...(mimeType !== undefined && { mimeType }), text }] };
}
