import type { FaultManifest, StubManifest } from "../model/index.js";
import { isMcpFakeModule, type McpFakeModule, mcpFakeFromModule } from "./mcp-fake-module.js";
import type { WorldSource } from "../world/index.js";
import type { Fake, Fakes } from "./served-fake.js";

export type { ApiFake, Fake, Fakes, McpFake } from "./served-fake.js";

/** What `startServices` takes: fakes from `loadFakes`, fakes declared in TypeScript, or both. */
export type FakesInput = Record<string, Fake | McpFakeModule>;

/** Every fake as the runtime serves it: TypeScript-declared ones converted (and checked) once. */
export function normalizeFakes(input: FakesInput): Fakes {
  const fakes: Fakes = {};
  for (const [id, fake] of Object.entries(input)) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) throw new Error(`[eval-simulate] "${id}" is not a valid fake id: use lowercase letters, digits and dashes`);
    if (isMcpFakeModule(fake)) fakes[id] = mcpFakeFromModule(id, fake);
    else if ((fake as Fake)?.kind === "mcp" || (fake as Fake)?.kind === "api") fakes[id] = fake as Fake;
    else throw new Error(`[eval-simulate] fake "${id}" is neither a fake from loadFakes nor a TypeScript fake module (manifest, contract, register)`);
  }
  return fakes;
}

/** A Recipe's world: built from the manifest's scenarios, or a function `world(scenario, clock)`. */
export type WorldOption = WorldSource | ((scenario: string, clock: Date) => unknown);

/** The world `loadFakes` returns: the scenarios' worlds and their stubs. */
export interface ManifestWorld extends WorldSource {
  stubs: Record<string, readonly StubManifest[]>;
  faults: Record<string, readonly FaultManifest[]>;
}
