import { describe, expect, it } from "vitest";
import { serve } from "../support/services.js";

const MANIFEST = new URL("../fixtures/emulate-builtin/fakes.yaml", import.meta.url).pathname;

describe("one of emulate's built-ins on the shared port", () => {
  it("serves the service seeded from the world, at /<id>/..., with links to the host", async () => {
    const services = await serve(MANIFEST);
    const base = services.baseUrl("gh");
    const repo = await fetch(`${base}/repos/octocat/hello`, { headers: { authorization: "token t1" } });
    expect(repo.status).toBe(200);
    const body = await repo.json();
    expect(body).toMatchObject({ full_name: "octocat/hello", owner: { login: "octocat" } });
    expect(body.owner.url).toBe(`${base}/users/octocat`);
    const missing = await fetch(`${base}/repos/octocat/nope`, { headers: { authorization: "token t1" } });
    expect(missing.status).toBe(404);
    expect(services.calls("gh").map((c) => [c.name, c.status])).toEqual([
      ["GET /gh/repos/octocat/hello", 200],
      ["GET /gh/repos/octocat/nope", 404],
    ]);
    expect(JSON.stringify(services.calls())).not.toContain("token t1");
    await services.close();
  });
});
