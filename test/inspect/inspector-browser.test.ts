import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, horizontalOverflow, launchChromium } from "../support/chromium.js";
import { runCli, startServe, type ServeProcess } from "../support/cli-process.js";
import { connect, SERVE_FIXTURE } from "../support/services.js";
import { failedCopy } from "../support/viewer-runs.js";

// The inspector (`serve --inspect`: the viewer's live mode) in a real headless browser (Debian's
// chromium; .ci/run installs it). Without it the test is skipped on a developer's machine and
// fails in CI, where it must run.
const CHROMIUM = chromiumPath();
const SHOTS = process.env.EVAL_SIMULATE_SCREENSHOTS;

const TOKEN = "inspector-secret";
const AUTH = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
let serve: ServeProcess;
let browser: Browser;
const base = () => `http://127.0.0.1:${serve.port}`;

async function openInspector(width = 1440, address = `/_inspect?token=${TOKEN}`): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(`${base()}${address}`);
  await page.locator("#status", { hasText: "live" }).waitFor();
  return page;
}

async function call(url: string, name: string, args: Record<string, unknown>) {
  const client = await connect(url);
  try {
    return await client.callTool({ name, arguments: args });
  } finally {
    await client.close();
  }
}

const newSession = async (id: string) =>
  (await (await fetch(`${base()}/sessions`, { method: "POST", headers: AUTH, body: JSON.stringify({ id }) })).json()) as { mcpServers: Array<{ url: string }> };

describe.skipIf(CHROMIUM === undefined)("the inspector page in a headless browser", () => {
  beforeAll(async () => {
    [serve, browser] = await Promise.all([startServe([SERVE_FIXTURE, "--inspect"], { EVAL_SIMULATE_ADMIN_TOKEN: TOKEN }), launchChromium()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    serve?.child.kill("SIGTERM");
    await serve?.exited;
  });

  it("is refused without the admin token", async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${base()}/_inspect`);
    expect(response?.status()).toBe(401);
    expect((await fetch(`${base()}/_inspect/world.json`)).status).toBe(401);
    expect((await fetch(`${base()}/_inspect/world.json?token=wrong`)).status).toBe(401);
    expect((await fetch(`${base()}/_inspect/viewer.js`)).status).toBe(401);
    await page.close();
  });

  it("shows calls as they happen, within 2 s, and the state's diff against the start", async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${base()}/_inspect?token=${TOKEN}`);
    expect(response?.status()).toBe(200);
    // The token was exchanged for the cookie by a 303: it is in neither the address bar nor a Referer.
    const redirect = await response?.request().redirectedFrom()?.response();
    expect(redirect?.status()).toBe(303);
    expect(redirect?.headers()["referrer-policy"]).toBe("no-referrer");
    expect(page.url()).toBe(`${base()}/_inspect`);
    expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
    await page.locator("#status", { hasText: "live" }).waitFor();
    await expect(page.locator("#state [data-fake=notes] tr[data-entity=notes] .badge").textContent()).resolves.toBe("unchanged");

    await call(`${base()}/notes/mcp`, "create-note", { title: "Seen in the browser 🎉" });
    // The page polls once a second: the call appears without a reload (no tight deadline: a loaded
    // machine can hold a poll back for seconds, and waiting longer proves the same).
    const created = page.locator("#calls tbody tr", { hasText: "create-note" });
    await created.waitFor();
    await expect(created.locator("td").nth(5).textContent()).resolves.toContain("Seen in the browser");
    await call(`${base()}/notes/mcp`, "bump", { by: 2 });
    await page.locator("#calls tbody tr", { hasText: "bump" }).waitFor();
    const notes = page.locator("#state [data-fake=notes] tr[data-entity=notes]");
    await notes.locator(".badge", { hasText: "changed" }).waitFor();
    await expect(notes.locator(".change.added").textContent()).resolves.toMatch(/^ added: note-\d+$/);
    await expect(page.locator("#state [data-fake=notes] tr[data-entity=counter] .badge").textContent()).resolves.toBe("changed");
    await page.close();
  });

  it("keeps the calls column and the page's width when the whole state is shown, at 1,440 and 414 px", async () => {
    for (const width of [1440, 414]) {
      const page = await openInspector(width);
      await page.locator("#calls tbody tr").first().waitFor();
      const before = (await page.locator("#calls").boundingBox())?.width ?? 0;
      await page.locator("#state [data-fake=notes] button", { hasText: "show state" }).click();
      await page.locator("#detail pre", { hasText: "Seen in the browser" }).first().waitFor();
      expect((await page.locator("#calls").boundingBox())?.width).toBe(before);
      expect(before).toBeGreaterThan(width * 0.8);
      expect(await horizontalOverflow(page)).toBe(0);
      if (SHOTS && width === 1440) await page.screenshot({ path: join(SHOTS, "inspector.png") });
      await page.close();
    }
  });

  it("refreshes the whole state it shows as calls change it", async () => {
    const page = await openInspector();
    await page.locator("#state [data-fake=notes] button", { hasText: "show state" }).click();
    await page.locator("#detail").waitFor();
    await call(`${base()}/notes/mcp`, "create-note", { title: "Written after the pane opened" });
    await page.locator("#detail pre", { hasText: "Written after the pane opened" }).waitFor({ timeout: 5_000 });
    await page.close();
  });

  it("shows a tool's error once, not twice", async () => {
    const page = await openInspector();
    await call(`${base()}/notes/mcp`, "create-note", { title: "forbidden" });
    const row = page.locator("#calls tbody tr", { hasText: "That title is not allowed" });
    await row.waitFor();
    const answer = (await row.locator("td.answer").textContent()) ?? "";
    expect(answer.split("That title is not allowed").length - 1).toBe(1);
    await page.close();
  });

  it("lists a session created after the page opened, without a reload, with its own calls", async () => {
    const page = await openInspector();
    const created = await newSession("trial-7");
    await page.locator("#world option[value=trial-7]").waitFor({ state: "attached" });
    await call(created.mcpServers[0].url, "create-note", { title: "Only in trial 7" });
    await page.locator("#world").selectOption("trial-7");
    await page.locator("#calls tbody tr", { hasText: "Only in trial 7" }).waitFor();
    expect(page.url()).toBe(`${base()}/_inspect#/world/trial-7`);
    await expect(page.locator("#calls tbody tr", { hasText: "Seen in the browser" }).count()).resolves.toBe(0);
    await page.close();
    // The older address of a world still opens it.
    const old = await openInspector(1440, `/_inspect?world=trial-7&token=${TOKEN}`);
    await old.locator("#calls tbody tr", { hasText: "Only in trial 7" }).waitFor();
    await old.close();
  });

  it("goes back to the served world when the session it shows is deleted, and stops asking for it", async () => {
    await newSession("short-lived");
    const page = await openInspector(1440, `/_inspect?token=${TOKEN}#/world/short-lived`);
    await expect(page.locator("#world").inputValue()).resolves.toBe("short-lived");
    const asked: string[] = [];
    page.on("request", (request) => asked.push(request.url()));
    expect((await fetch(`${base()}/sessions/short-lived`, { method: "DELETE", headers: AUTH })).status).toBeLessThan(300);
    await page.locator("#notice", { hasText: 'world "short-lived" is gone' }).waitFor();
    await page.locator("#calls tbody tr", { hasText: "Seen in the browser" }).first().waitFor();
    await expect(page.locator("#world").inputValue()).resolves.toBe("default");
    // Two more polls of the served world, and none of the deleted one since the switch.
    const switched = asked.length;
    await page.waitForRequest((r) => r.url().includes("world.json?world=default"));
    await page.waitForRequest((r) => r.url().includes("world.json?world=default"));
    expect(asked.slice(switched).filter((url) => url.includes("short-lived"))).toEqual([]);
    await page.close();
  });

  it("shows an agent's text as text, never as markup, in a font with emoji", async () => {
    await call(`${base()}/notes/mcp`, "create-note", { title: "<img src=x onerror=\"document.title='pwned'\">" });
    const page = await openInspector();
    await page.locator("#calls tbody tr", { hasText: "<img src=x" }).first().waitFor();
    expect(await page.title()).toBe("eval-simulate inspector");
    expect(await page.locator("#calls img").count()).toBe(0);
    const fonts = await page
      .locator("#calls td.value pre")
      .first()
      .evaluate((e) => getComputedStyle(e).fontFamily);
    expect(fonts).toContain("Noto Color Emoji");
    await page.close();
  });
});

describe.skipIf(CHROMIUM === undefined)("the inspector page with an eval run's results", () => {
  it("shows each case's verdict and pass rate, and which assertion failed a failing case", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-inspect-"));
    const out = join(dir, "results.ndjson");
    const run = await runCli(["eval", "examples/crm/evals.yaml", "--dry", "--out", out]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    failedCopy(out, join(dir, "failed.ndjson"));
    const [served, viewer] = await Promise.all([startServe([SERVE_FIXTURE, "--inspect", "--inspect-results", join(dir, "failed.ndjson")]), launchChromium()]);
    try {
      const page = await viewer.newPage();
      await page.goto(`http://127.0.0.1:${served.port}/_inspect`);
      const row = page.locator("#results tbody tr[data-case=open-tasks-read-only]");
      await row.waitFor();
      await expect(row.locator("td").nth(1).textContent()).resolves.toBe("pass");
      await expect(page.locator("#results tbody tr").count()).resolves.toBe(5);
      await expect(page.locator("#results-meta").textContent()).resolves.toMatch(/7\/8 trials passed/);
      const failing = page.locator("#results tbody tr[data-case=close-acme-renewal]");
      await expect(failing.locator("td").nth(1).textContent()).resolves.toBe("fail");
      await expect(failing.locator(".failure").first().textContent()).resolves.toContain("expected the deal won");
    } finally {
      await viewer.close();
      served.child.kill("SIGTERM");
      await served.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
