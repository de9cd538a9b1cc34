import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { type Services, startServices } from "../../engine/serve/host/start-services.js";
import type { ServicesOptions } from "../../engine/serve/host/starting-states.js";

export const SERVE_FIXTURE = new URL("../fixtures/serve/fakes.yaml", import.meta.url).pathname;
export const CLOCK = "2026-10-01T09:00:00.000Z";

/** Starts the fakes of a manifest on an ephemeral loopback port, at `CLOCK` unless `options.clock` is given. */
export async function serve(manifest = SERVE_FIXTURE, options: ServicesOptions = {}): Promise<Services> {
  const clock = options.clock ?? CLOCK;
  const { fakes, world } = await loadFakes(manifest, { clock });
  return startServices(fakes, { world, ...options, clock });
}

/** The official MCP client over real HTTP: `legacy` speaks 2025-11-25, `auto` negotiates 2026-07-28. */
export async function connect(url: string, mode: "legacy" | "auto" = "legacy"): Promise<Client> {
  const client = new Client({ name: "eval-simulate-test", version: "1.0.0" }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** The text of a tool result's first content item. */
export function textOf(result: { content?: unknown }): string {
  const first = (result.content as Array<{ type: string; text?: string }> | undefined)?.[0];
  return first?.type === "text" ? (first.text ?? "") : "";
}
