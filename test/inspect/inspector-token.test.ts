import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { serve, SERVE_FIXTURE } from "../support/services.js";

const TOKEN = "inspector-secret";

describe("the inspector's ?token=", () => {
  let services: Services;
  beforeAll(async () => {
    services = await serve(SERVE_FIXTURE, { adminToken: TOKEN, inspect: true });
  });
  afterAll(() => services.close());

  it("is exchanged for the HttpOnly cookie with a 303 to the same address without it, other parameters kept", async () => {
    const answer = await fetch(`${services.origin}/_inspect/world.json?world=main&token=${TOKEN}&since=3`, { redirect: "manual" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/_inspect/world.json?world=main&since=3");
    expect(answer.headers.get("set-cookie")).toBe(`eval_simulate_inspect=${TOKEN}; Path=/_inspect; HttpOnly; SameSite=Strict`);
    expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const page = await fetch(`${services.origin}/_inspect?token=${TOKEN}`, { redirect: "manual" });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/_inspect");
  });

  it("is refused, not redirected, when it is wrong; the cookie alone is enough afterwards", async () => {
    const wrong = await fetch(`${services.origin}/_inspect?token=wrong`, { redirect: "manual" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("location")).toBeNull();
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const withCookie = await fetch(`${services.origin}/_inspect/worlds.json`, { headers: { cookie: `eval_simulate_inspect=${TOKEN}` } });
    expect(withCookie.status).toBe(200);
  });

  it("sends Referrer-Policy: no-referrer on the page and on its JSON, so no address leaks as a Referer", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (const path of [
      "/_inspect",
      "/_inspect/worlds.json",
      "/_inspect/world.json",
      "/_inspect/results.json",
      "/_inspect/state.json?fake=notes",
      "/_inspect/nothing",
      "/_inspect/state.json?fake=none",
    ]) {
      const answer = await fetch(`${services.origin}${path}`, { headers: auth });
      expect(answer.headers.get("referrer-policy"), path).toBe("no-referrer");
      await answer.body?.cancel();
    }
    expect((await fetch(`${services.origin}/_inspect`)).headers.get("referrer-policy")).toBe("no-referrer");
  });
});

describe("the inspector without an admin token", () => {
  it("still takes a stray ?token= out of the address", async () => {
    const services = await serve(SERVE_FIXTURE, { inspect: true });
    try {
      const answer = await fetch(`${services.origin}/_inspect?token=x&world=main`, { redirect: "manual" });
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toBe("/_inspect?world=main");
      expect(answer.headers.get("set-cookie")).toBeNull();
    } finally {
      await services.close();
    }
  });
});
