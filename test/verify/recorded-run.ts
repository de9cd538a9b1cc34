import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import type { Services } from "../../engine/serve/host/start-services.js";
import { ROOT } from "../support/examples.js";
import { connect, serve } from "../support/services.js";

/** A finished run of an example, as an eval's checks find it: files on disk. */
export interface RecordedRun {
  /** The example's fakes.yaml. */
  manifest: string;
  /** What `manifestDir` wrote. */
  manifestDir: string;
  /** The `record` file. */
  record: string;
  /** The parsed initial and final state files. */
  states: { initial: Record<string, Record<string, unknown>>; final: Record<string, Record<string, unknown>> };
}

export const exampleManifest = (name: string) => join(ROOT, "examples", name, "fakes.yaml");

/**
 * Serves an example with record, manifest dir and state files, hands `drive` a connected
 * official client per fake, and returns the files once the services have closed.
 */
export async function recordedRun(
  example: string,
  drive: (clients: Record<string, Client>, services: Services) => Promise<void>,
  scenario?: string,
): Promise<RecordedRun> {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-verify-"));
  const files = {
    record: join(dir, "calls.jsonl"),
    manifestDir: join(dir, "manifests"),
    stateFile: join(dir, "state.json"),
    initialStateFile: join(dir, "initial-state.json"),
  };
  const manifest = exampleManifest(example);
  const services = await serve(manifest, { ...files, ...(scenario ? { scenario } : {}) });
  const clients: Record<string, Client> = {};
  try {
    for (const { id, url } of services.mcpServers()) clients[id] = await connect(url);
    await drive(clients, services);
  } finally {
    await Promise.all(Object.values(clients).map((client) => client.close()));
    await services.close();
  }
  const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));
  return {
    manifest,
    manifestDir: files.manifestDir,
    record: files.record,
    states: { initial: json(files.initialStateFile), final: json(files.stateFile) },
  };
}
