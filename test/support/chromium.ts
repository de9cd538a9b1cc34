import { existsSync } from "node:fs";

/** Whether this is a CI run: `CI` set, as CI services and `.ci/run` set it, and not `false` or `0`. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI !== undefined && env.CI !== "" && env.CI !== "false" && env.CI !== "0";
}

/**
 * The Chromium the browser project drives: `CHROMIUM_PATH`, or Debian's (`.ci/run` installs it).
 * Undefined on a developer's machine without it, so the browser test is skipped there; in CI a
 * missing Chromium throws, so the test fails instead of passing unseen.
 */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = existsSync): string | undefined {
  const path = env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (exists(path)) return path;
  if (inCi(env))
    throw new Error(`[test] the browser tests need Chromium at ${path} (apt-get install chromium, or set CHROMIUM_PATH); in CI they fail rather than skip`);
  return undefined;
}

/** Headless Chromium as the browser tests drive it: no sandbox (containers), no network of its own. */
export async function launchChromium(): Promise<import("playwright-core").Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: chromiumPath(),
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
}

/** How much wider than the window a page is (0 when it does not scroll sideways). */
export async function horizontalOverflow(page: import("playwright-core").Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
