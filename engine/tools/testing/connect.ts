/**
 * Connecting the official MCP client to a fake, and what the testing helpers know about the
 * client's fake: each served tool's answer, so `callTool` can hold a successful answer to the
 * tool's contract. It is kept beside the objects in WeakMaps, so nothing is added to the SDK's
 * client and nothing outlives it.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { AnswerSpec } from "../../author/contract/index.js";
import type { Fake, FakesInput } from "../../author/fakes/index.js";
import type { Services } from "../../serve/host/index.js";
import { isMcpFakeModule, type McpFakeModule } from "../../author/fakes/index.js";

/** How `connect` connects. */
export interface ConnectOptions {
  /**
   * The fakes the services were started with, when they were not started by `withFakes`: with
   * them `callTool` checks every successful answer against its tool's contract.
   */
  fakes?: FakesInput;
  /** `legacy` (the default) speaks protocol 2025-11-25; `auto` negotiates the newest era. */
  protocol?: "legacy" | "auto";
}

/**
 * The official MCP client over Streamable HTTP, connected to `url`.
 *
 * @example const client = await openClient(services.url("crm"));
 */
export async function openClient(url: string, protocol: "legacy" | "auto" = "legacy"): Promise<Client> {
  const client = new Client({ name: "eval-simulate-testing", version: "1.0.0" }, { versionNegotiation: { mode: protocol } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/**
 * An official MCP client connected to one running fake. When the fake's contract is known (the
 * services came from `withFakes`, or `fakes` is given) `callTool` checks answers against it.
 *
 * @example
 * const services = await startServices(fakes, { world });
 * const crm = await connect(services, "crm", { fakes });
 * await call(crm, "list-notes", {});
 */
export async function connect(services: Services, id: string, options: ConnectOptions = {}): Promise<Client> {
  const client = await openClient(services.url(id), options.protocol);
  const fake = (options.fakes ?? fakesOf(services))?.[id];
  if (fake !== undefined) attachContract(client, { fake: id, tools: answersOf(fake) });
  return client;
}

/** A fake's served tools by name, each with its answer. */
export type ToolAnswers = ReadonlyMap<string, { answer: AnswerSpec }>;

/** The contract a client was connected with: its fake's id and tools. */
export interface ClientContract {
  fake: string;
  tools: ToolAnswers;
}

const servicesFakes = new WeakMap<Services, FakesInput>();
const clientContracts = new WeakMap<object, ClientContract>();

/**
 * The served tools of a fake and their answers, however the fake was declared: a fake from
 * `loadFakes` serves its manifest's tools; a TypeScript module the tools its manifest allows.
 *
 * @example answersOf(fakes.crm).get("create-note")?.answer.format; // "json"
 */
export function answersOf(fake: Fake | McpFakeModule): ToolAnswers {
  if (isMcpFakeModule(fake)) {
    const entries = Object.keys(fake.manifest.tools)
      .filter((name) => fake.contract[name] !== undefined)
      .map((name) => [name, { answer: fake.contract[name].answer }] as const);
    return new Map(entries);
  }
  if (fake.kind !== "mcp") return new Map();
  return new Map(fake.manifest.tools.map((tool) => [tool.name, { answer: tool.answer }] as const));
}

/** Remembers which fakes a running Services serves, so `connect` can find each fake's contract. */
export function rememberFakes(services: Services, fakes: FakesInput): void {
  servicesFakes.set(services, fakes);
}

/** The fakes `withFakes` started these services with, if it did. */
export function fakesOf(services: Services): FakesInput | undefined {
  return servicesFakes.get(services);
}

/** Attaches a fake's contract to a client, for `callTool`. */
export function attachContract(client: object, contract: ClientContract): void {
  clientContracts.set(client, contract);
}

/** The contract a client was connected with, when it is known. */
export function contractOfClient(client: object): ClientContract | undefined {
  return clientContracts.get(client);
}
