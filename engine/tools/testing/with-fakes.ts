import type { Client } from "@modelcontextprotocol/client";
import type { FakesInput, WorldOption } from "../../author/fakes/index.js";
import { type Services, startServices } from "../../serve/host/index.js";
import type { States } from "../../serve/runtime/index.js";
import { answersOf, attachContract, connect, openClient, rememberFakes } from "./connect.js";
import { filePath } from "./recording.js";

/** How `withFakes` starts the fakes. */
export interface WithFakesOptions {
  /** The clock the world is built at and handlers read as `now`; now by default. */
  clock?: string | number | Date;
  /** A JSONL file every call is appended to (see `recording`). */
  record?: string | URL;
  /**
   * Fakes already running (`startServices` with the same fakes): each call then runs in a fresh
   * session of them instead of starting its own host, which is much faster for many tests. The
   * states passed to `fn` are the session's; `record` is then the running host's own option.
   */
  services?: Services;
}

/** What `withFakes` passes its function: a connected client per MCP fake id, the live states, the services. */
export type FakeClients<F extends FakesInput> = { [K in keyof F]: Client } & {
  /** Every fake's live state by id (frozen values, replaced as calls commit). */
  states: States;
  services: Services;
};

const RESERVED = ["states", "services"];

/**
 * Starts fresh fakes for a scenario, connects an official MCP client to each, calls `fn` with
 * the clients by fake id, the states and the services, and closes everything after, whether
 * `fn` resolved or threw. Each call starts a new world, so tests never see each other's calls;
 * given running `services`, that world is a session of them (see `WithFakesOptions.services`).
 *
 * @example
 * test("a note written is read back", () =>
 *   withFakes(fakes, world, "quiet", async ({ crm, states }) => {
 *     await call(crm, "create-note", { parent_object: "deals", parent_record_id: id, title: "Renewal", content: "…" });
 *     assert.equal(states.crm.notes.length, 3);
 *   }, { clock: CLOCK, record: RECORD }));
 */
export async function withFakes<F extends FakesInput, T>(
  fakes: F,
  world: WorldOption,
  scenario: string | undefined,
  fn: (fakes: FakeClients<F>) => T | Promise<T>,
  options: WithFakesOptions = {},
): Promise<T> {
  const clash = Object.keys(fakes).find((id) => RESERVED.includes(id));
  if (clash !== undefined) {
    throw new Error(
      `[eval-simulate] withFakes passes "${clash}" beside the clients, so a fake cannot be named "${clash}": rename the fake, or use startServices and connect`,
    );
  }
  if (options.services) return inSession(fakes, options.services, scenario, fn, options);
  const services = await startServices(fakes, {
    world,
    ...(scenario === undefined ? {} : { scenario }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.record === undefined ? {} : { record: filePath(options.record) }),
  });
  rememberFakes(services, fakes);
  const clients: Client[] = [];
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    const byId: Record<string, unknown> = { states: services.states, services };
    for (const [id, fake] of Object.entries(fakes)) {
      // An API fake is called over HTTP (services.baseUrl), not with an MCP client.
      if ((fake as { kind?: string }).kind === "api") continue;
      const client = await connect(services, id);
      clients.push(client);
      byId[id] = client;
    }
    outcome = { ok: true, value: await fn(byId as FakeClients<F>) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  const closing = await Promise.allSettled(clients.map((client) => client.close()));
  closing.push(...(await Promise.allSettled([services.close()])));
  if (!outcome.ok) throw outcome.error;
  const failed = closing.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed) throw failed.reason;
  return outcome.value;
}

/** `withFakes` in a fresh session of services already running: nothing is started or compiled. */
async function inSession<F extends FakesInput, T>(
  fakes: F,
  services: Services,
  scenario: string | undefined,
  fn: (fakes: FakeClients<F>) => T | Promise<T>,
  options: WithFakesOptions,
): Promise<T> {
  if (options.record !== undefined) {
    throw new Error("[eval-simulate] withFakes records through the running services when given them: start them with `record` instead");
  }
  const session = await services.createSession({
    ...(scenario === undefined ? {} : { scenario }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const clients: Client[] = [];
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    const byId: Record<string, unknown> = { states: session.states, services };
    for (const [id, fake] of Object.entries(fakes)) {
      if ((fake as { kind?: string }).kind === "api") continue;
      const client = await openClient(session.url(id));
      attachContract(client, { fake: id, tools: answersOf(fake) });
      clients.push(client);
      byId[id] = client;
    }
    outcome = { ok: true, value: await fn(byId as FakeClients<F>) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  const closing = await Promise.allSettled([...clients.map((client) => client.close()), session.close()]);
  if (!outcome.ok) throw outcome.error;
  const failed = closing.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed) throw failed.reason;
  return outcome.value;
}
