import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import type { Services } from "../../engine/serve/host/start-services.js";
import { fakeHash, worldHash } from "../../engine/entries/verify.js";
import { ROOT } from "../support/examples.js";
import { connect, serve } from "../support/services.js";

const CRM = join(ROOT, "examples/crm/fakes.yaml");
const started: Services[] = [];
const start = async (...args: Parameters<typeof serve>) => {
  const services = await serve(...args);
  started.push(services);
  return services;
};

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

describe("world hashes over HTTP", () => {
  it("answers /<id>/admin/state?hash=1 with the fake's hash, equal for two worlds of the same scenario and clock", async () => {
    const a = await start(CRM, { scenario: "quiet" });
    const b = await start(CRM, { scenario: "quiet" });
    const hashOf = async (s: Services) => (await fetch(`${s.origin}/crm/admin/state?hash=1`)).json();
    const first = await hashOf(a);
    expect(first).toEqual(fakeHash(a.states.crm));
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(first.entities)).toEqual(["companies", "deals", "notes", "people", "tasks"]);
    expect(await hashOf(b)).toEqual(first);
    expect(worldHash(a.states)).toEqual(worldHash(b.states));
    const other = await start(CRM, { scenario: "pipeline-review" });
    expect((await hashOf(other)).hash).not.toBe(first.hash);
  });

  it("changes the hash of the entity a call changed, and only that one", async () => {
    const services = await start(CRM, { scenario: "quiet" });
    const before = fakeHash(services.states.crm);
    const client = await connect(services.url("crm"));
    const tasks = services.states.crm.tasks as Array<{ id: string; is_completed: boolean }>;
    await client.callTool({ name: "complete-task", arguments: { task_id: tasks.find((t) => !t.is_completed)!.id } });
    await client.close();
    const after = await (await fetch(`${services.origin}/crm/admin/state?hash=1`)).json();
    expect(after.entities.tasks).not.toBe(before.entities.tasks);
    expect({ ...after.entities, tasks: undefined }).toEqual({ ...before.entities, tasks: undefined });
  });

  it("keeps ?hash=1 behind the admin token", async () => {
    const services = await start(CRM, { adminToken: "s3cret" });
    expect((await fetch(`${services.origin}/crm/admin/state?hash=1`)).status).toBe(401);
    const ok = await fetch(`${services.origin}/crm/admin/state?hash=1`, { headers: { authorization: "Bearer s3cret" } });
    expect((await ok.json()).hash).toBe(fakeHash(services.states.crm).hash);
  });
});
