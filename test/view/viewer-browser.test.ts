import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, horizontalOverflow, launchChromium } from "../support/chromium.js";
import { runCli } from "../support/cli-process.js";
import { exampleRuns, startView, type ViewProcess } from "../support/viewer-runs.js";

// `eval-simulate view` in headless Chromium, over real results files of the crm, mail and
// workspace examples. Skipped without Chromium on a developer's machine; in CI it must run.
const CHROMIUM = chromiumPath();
const SHOTS = process.env.EVAL_SIMULATE_SCREENSHOTS;

let dir: string;
let runs: Awaited<ReturnType<typeof exampleRuns>>;
let view: ViewProcess;
let browser: Browser;
const problems: string[] = [];

async function open(hash: string, width = 1440): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.on("pageerror", (error) => problems.push(String(error)));
  await page.goto(`${view.url}${hash}`);
  await page.locator("[data-page]").waitFor();
  return page;
}

async function shoot(page: Page, name: string) {
  // The top of the page, at most 1,300 px of it: enough to show it, small enough to ship in the docs.
  if (SHOTS) {
    const height = Math.min(1300, await page.evaluate(() => document.documentElement.scrollHeight));
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true, clip: { x: 0, y: 0, width: 1440, height } });
  }
}

const CRM_TRIAL = `#/run/0/trial/${encodeURIComponent("close-acme-renewal#0@script")}`;

describe.skipIf(CHROMIUM === undefined)("eval-simulate view in a headless browser", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "eval-simulate-view-"));
    runs = await exampleRuns(dir);
    [view, browser] = await Promise.all([startView([runs.hostile, runs.crm, runs.workspace, runs.mail]), launchChromium()]);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    view?.child.kill("SIGTERM");
    await view?.exited;
    rmSync(dir, { recursive: true, force: true });
    expect(problems).toEqual([]);
  });

  it("shows a run's cases with pass rates, plots and filters, wide or narrow, without sideways scrolling", async () => {
    for (const width of [1440, 414]) {
      const page = await open("#/run/1", width);
      await expect(page.locator("#cases tbody tr").count()).resolves.toBe(5);
      await expect(page.locator("#cases tr[data-case=log-globex-call-note] td").nth(3).textContent()).resolves.toBe("3/3");
      for (const plot of ["pass-rate", "pass-hat-k", "scores", "cost"]) await page.locator(`[data-plot=${plot}] canvas`).waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      if (width === 1440) await shoot(page, "viewer-run");
      await page.locator("select[name=tag]").selectOption("tasks");
      await expect(page.locator("#cases tbody tr").count()).resolves.toBe(1);
      await page.close();
    }
    const failing = await open("#/run/0");
    await failing.locator("select[name=verdict]").selectOption("fail");
    await expect(failing.locator("#cases tbody tr").count()).resolves.toBe(1);
    await expect(failing.locator("#cases tbody tr .failure").textContent()).resolves.toContain("expected the deal won");
    await failing.close();
  });

  it("shows a case's trials side by side, with its long answers wrapped inside their cards", async () => {
    for (const width of [1440, 414]) {
      const page = await open(`#/run/1/case/log-globex-call-note`, width);
      await expect(page.locator(".trial-card").count()).resolves.toBe(3);
      expect(await horizontalOverflow(page)).toBe(0);
      if (width === 1440) await shoot(page, "viewer-case");
      await page.close();
    }
    const hostile = await open(`#/run/0/case/close-acme-renewal`, 414);
    await hostile.locator(".trial-card pre.long", { hasText: "a very long answer" }).waitFor();
    expect(await horizontalOverflow(hostile)).toBe(0);
    await hostile.close();
  });

  it("lists a trial's calls and its failing assertions, linked to the calls and commits, and escapes what the results file holds", async () => {
    for (const width of [1440, 414]) {
      const page = await open(CRM_TRIAL, width);
      await expect(page.locator("#transcript [data-call]").count()).resolves.toBe(4);
      await expect(page.locator("#transcript [data-call='2'] .mono").textContent()).resolves.toBe("#2 crm/update-record");
      await expect(page.locator("#transcript [data-call='2'] .commit-link").textContent()).resolves.toBe("commit #1");
      const failed = page.locator("#assertions tr[data-status=fail]");
      await expect(failed.count()).resolves.toBe(1);
      await expect(failed.locator("td").nth(2).textContent()).resolves.toContain("expected the deal won");
      await expect(page.locator("#assertions tr[data-status=pass]").count()).resolves.toBeGreaterThan(5);
      // The hostile answer and tool name are text: no element, no script ran.
      await page.locator("#transcript .msg.assistant", { hasText: "<img src=x" }).waitFor();
      await page.locator("#transcript [data-call='1'] .mono", { hasText: "<script>" }).waitFor();
      expect(await page.locator("main img, main script").count()).toBe(0);
      expect(await page.title()).not.toBe("pwned");
      expect(await horizontalOverflow(page)).toBe(0);
      if (width === 1440) await shoot(page, "viewer-trial");
      await page.close();
    }
    const page = await open(CRM_TRIAL);
    await page.locator("#assertions tr", { hasText: "state.changed crm.tasks" }).locator("a.commit-link").click();
    expect(page.url()).toMatch(/\/commit\/2$/);
    await page.close();
  });

  it("interleaves the user's, the agent's and the tools' messages when the line has a transcript", async () => {
    const page = await open(`#/run/0/trial/${encodeURIComponent("pipeline-value#0@script")}`, 414);
    await expect(page.locator("#transcript .msg").evaluateAll((messages) => messages.map((m) => m.className.replace("msg ", "").trim()))).resolves.toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    await expect(page.locator("#transcript .msg.user pre").textContent()).resolves.toBe("What is the Acme renewal worth?");
    await expect(page.locator("#transcript [data-call='1'] .mono").textContent()).resolves.toBe("#1 crm/search-records");
    expect(await horizontalOverflow(page)).toBe(0);
    await page.close();
  });

  it("shows the world at the commit the slider chooses, and at the commit an address names", async () => {
    const page = await open(`#/run/1/trial/${encodeURIComponent("close-acme-renewal#0@script")}`);
    const world = page.locator("#world");
    await world.locator("[data-entity='crm.tasks']").waitFor();
    await expect(world.locator("[data-entity='crm.deals'] td").nth(1).textContent()).resolves.toContain("updated");
    await page.locator("#commit-slider").fill("0");
    await world.locator(".slider", { hasText: "at commit #1 of 2" }).waitFor();
    expect(page.url()).toMatch(/\/commit\/1$/);
    await expect(world.locator("[data-entity='crm.tasks']").count()).resolves.toBe(0);
    await expect(world.locator("[data-entity='crm.deals'] pre").textContent()).resolves.toContain('"stage": "won"');
    await page.close();
    const linked = await open(`#/run/1/trial/${encodeURIComponent("close-acme-renewal#0@script")}/commit/1`);
    await linked.locator("#world .slider", { hasText: "at commit #1 of 2" }).waitFor();
    await linked.close();
  });

  it("compares two runs: the case the second run passes improved, the others unchanged", async () => {
    for (const width of [1440, 414]) {
      const page = await open("#/compare", width);
      await expect(page.locator("#compare-cases tr[data-case=close-acme-renewal]").getAttribute("data-change")).resolves.toBe("improved");
      await expect(page.locator("#compare-cases tr[data-change=unchanged-passing]").count()).resolves.toBe(4);
      expect(await horizontalOverflow(page)).toBe(0);
      if (width === 1440) await shoot(page, "viewer-compare");
      await page.close();
    }
  });

  it("shows tool selection: per-tool F1 and which tool was chosen for which expected one", async () => {
    for (const width of [1440, 414]) {
      const page = await open("#/run/2/selection", width);
      await page.locator("[data-plot=tool-f1] canvas").waitFor();
      await expect(page.locator("#tools tr[data-tool='files/directory_tree'] td").nth(2).textContent()).resolves.toBe("0.00");
      await expect(page.locator("#tools tr[data-tool='files/directory_tree'] td").nth(3).textContent()).resolves.toBe("0.00");
      await expect(page.locator("#tools tr[data-tool='files/write_file'] td").nth(3).textContent()).resolves.toBe("1.00");
      await page.locator(".area tr.miss", { hasText: "files/list_directory" }).waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      if (width === 1440) await shoot(page, "viewer-selection");
      await page.close();
    }
    const mail = await open("#/run/3");
    await expect(mail.locator("#cases tbody tr").count()).resolves.toBe(2);
    await mail.close();
  });

  it("renders the run, a case and a trial of each example's run at 414 px", async () => {
    const data = (await (await fetch(`${view.url}view.json`)).json()) as { runs: Array<{ trials: Array<{ case: string; iteration: number; model: string }> }> };
    for (const run of [1, 2, 3]) {
      const first = data.runs[run].trials[0];
      const trial = encodeURIComponent(`${first.case}#${first.iteration}@${first.model}`);
      for (const [hash, kind, shows] of [
        [`#/run/${run}`, "run", "#cases tbody tr"],
        [`#/run/${run}/case/${encodeURIComponent(first.case)}`, "case", ".trial-card"],
        [`#/run/${run}/trial/${trial}`, "trial", "#assertions, #transcript"],
      ]) {
        const page = await open(hash, 414);
        await expect(page.locator("[data-page]").getAttribute("data-page")).resolves.toBe(kind);
        await page.locator(shows).first().waitFor({ state: "attached" });
        expect(await horizontalOverflow(page), hash).toBe(0);
        await page.close();
      }
    }
  });

  it("writes the same viewer into a folder that opens from disk", async () => {
    const site = join(dir, "site");
    const written = await runCli(["view", runs.crm, "--out", site]);
    expect(written.code, written.stderr).toBe(0);
    const page = await browser.newPage();
    await page.goto(`${pathToFileURL(join(site, "index.html")).href}#/run/0/case/pipeline-value`);
    await page.locator("[data-page=case] .trial-card").waitFor();
    await page.close();
  });

  it("refuses a page of another site and a rebound host name", async () => {
    const evil = await fetch(`${view.url}view.json`, { headers: { origin: "https://evil.example" } });
    expect(evil.status).toBe(403);
    const { port } = new URL(view.url);
    const rebound = await new Promise<number | undefined>((resolve, reject) =>
      request({ host: "127.0.0.1", port, path: "/view.json", headers: { host: `evil.example:${port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on("error", reject)
        .end(),
    );
    expect(rebound).toBe(403);
    expect((await fetch(`${view.url}view.json`)).status).toBe(200);
  });
});
