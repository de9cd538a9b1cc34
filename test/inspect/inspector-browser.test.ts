import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath } from "../support/chromium.js";
import { runCli, startServe, type ServeProcess } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { connect, SERVE_FIXTURE } from "../support/services.js";

// The inspector in a real headless browser (Debian's chromium; .ci/run installs it). Without it
// the test is skipped on a developer's machine and fails in CI, where it must run.
const CHROMIUM = chromiumPath();

const TOKEN = "inspector-secret";
let serve: ServeProcess;
let browser: Browser;

describe.skipIf(CHROMIUM === undefined)("the inspector page in a headless browser", () => {
  beforeAll(async () => {
    serve = await startServe([SERVE_FIXTURE, "--inspect"], { EVAL_SIMULATE_ADMIN_TOKEN: TOKEN });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    serve?.child.kill("SIGTERM");
    await serve?.exited;
  });

  it("is refused without the admin token", async () => {
    const page = await browser.newPage();
    const response = await page.goto(`http://127.0.0.1:${serve.port}/_inspect`);
    expect(response?.status()).toBe(401);
    expect((await fetch(`http://127.0.0.1:${serve.port}/_inspect/world.json`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${serve.port}/_inspect/world.json?token=wrong`)).status).toBe(401);
    await page.close();
  });

  it("shows calls as they happen, and the state's diff against the start", async () => {
    const page = await browser.newPage();
    const response = await page.goto(`http://127.0.0.1:${serve.port}/_inspect?token=${TOKEN}`);
    expect(response?.status()).toBe(200);
    // The token was exchanged for the cookie by a 303: it is in neither the address bar nor a Referer.
    const redirect = await response?.request().redirectedFrom()?.response();
    expect(redirect?.status()).toBe(303);
    expect(redirect?.headers()["referrer-policy"]).toBe("no-referrer");
    expect(page.url()).toBe(`http://127.0.0.1:${serve.port}/_inspect`);
    expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
    await page.locator("#status", { hasText: "live" }).waitFor();
    await expect(page.locator("#state table[data-fake=notes] tr[data-entity=notes] .badge").textContent()).resolves.toBe("unchanged");

    const client = await connect(`http://127.0.0.1:${serve.port}/notes/mcp`);
    await client.callTool({ name: "create-note", arguments: { title: "Seen in the browser" } });
    await client.callTool({ name: "bump", arguments: { by: 2 } });
    await client.close();

    // The page polls once a second: the calls appear in the timeline without a reload.
    const created = page.locator("#calls tbody tr", { hasText: "create-note" });
    await created.waitFor({ timeout: 10_000 });
    await expect(created.locator("td").nth(7).textContent()).resolves.toContain("Seen in the browser");
    await page.locator("#calls tbody tr", { hasText: "bump" }).waitFor();
    const notes = page.locator("#state table[data-fake=notes] tr[data-entity=notes]");
    await notes.locator(".badge", { hasText: "changed" }).waitFor();
    await expect(notes.locator(".added").textContent()).resolves.toMatch(/^added: note-\d+$/);
    await expect(page.locator("#state table[data-fake=notes] tr[data-entity=counter] .badge").textContent()).resolves.toBe("changed");

    await page.locator("#state table[data-fake=notes] button").click();
    await page.locator("#detail pre", { hasText: "Seen in the browser" }).waitFor();
    mkdirSync(join(ROOT, ".tmp"), { recursive: true });
    await page.screenshot({ path: join(ROOT, ".tmp/inspector.png"), fullPage: true });
    await page.close();
  });

  it("lists the sessions beside the served world, each with its own calls", async () => {
    const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
    const created = await (
      await fetch(`http://127.0.0.1:${serve.port}/sessions`, { method: "POST", headers: auth, body: JSON.stringify({ id: "trial-7" }) })
    ).json();
    const client = await connect(created.mcpServers[0].url);
    await client.callTool({ name: "create-note", arguments: { title: "Only in trial 7" } });
    await client.close();
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${serve.port}/_inspect?world=trial-7&token=${TOKEN}`);
    expect(page.url()).toBe(`http://127.0.0.1:${serve.port}/_inspect?world=trial-7`);
    await page.locator("#world option[value=trial-7]").waitFor({ state: "attached" });
    await page.locator("#world").selectOption("trial-7");
    await page.locator("#calls tbody tr", { hasText: "Only in trial 7" }).waitFor();
    await expect(page.locator("#calls tbody tr", { hasText: "Seen in the browser" }).count()).resolves.toBe(0);
    await page.close();
  });

  it("shows an agent's text as text, never as markup", async () => {
    const client = await connect(`http://127.0.0.1:${serve.port}/notes/mcp`);
    await client.callTool({ name: "create-note", arguments: { title: "<img src=x onerror=\"document.title='pwned'\">" } });
    await client.close();
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${serve.port}/_inspect?token=${TOKEN}`);
    await page.locator("#calls tbody tr", { hasText: "<img src=x" }).first().waitFor();
    expect(await page.title()).toBe("eval-simulate inspector");
    expect(await page.locator("#calls img").count()).toBe(0);
    await page.close();
  });
});

describe.skipIf(CHROMIUM === undefined)("the inspector page with an eval run's results", () => {
  it("shows each case's verdict and pass rate from the results file", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "eval-simulate-inspect-")), "results.ndjson");
    const run = await runCli(["eval", "examples/crm/evals.yaml", "--dry", "--out", out]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const served = await startServe([SERVE_FIXTURE, "--inspect", "--inspect-results", out]);
    const viewer = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
    try {
      const page = await viewer.newPage();
      await page.goto(`http://127.0.0.1:${served.port}/_inspect`);
      const row = page.locator("#results tbody tr[data-case=open-tasks-read-only]");
      await row.waitFor();
      await expect(row.locator("td").nth(2).textContent()).resolves.toBe("pass");
      await expect(page.locator("#results tbody tr").count()).resolves.toBe(5);
      await expect(page.locator("#results-meta").textContent()).resolves.toMatch(/8\/8 trials passed/);
    } finally {
      await viewer.close();
      served.child.kill("SIGTERM");
      await served.exited;
    }
  }, 60_000);
});
