import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";
import { trialLine } from "../support/trial-lines.js";

/** One passed trial whose answer is `answer`. */
const answered = (answer: string) => trialLine({ case: "x", answer });

const dir = mkdtempSync(join(tmpdir(), "eval-simulate-view-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("eval-simulate view as a process", () => {
  it("exits 2 naming the file and line of a results file it cannot read, and a bad port", async () => {
    const bad = join(dir, "bad.ndjson");
    writeFileSync(bad, '{"case":"a"}\n');
    const refused = await runCli(["view", bad, "--out", join(dir, "never")]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^eval-simulate view: .*bad\.ndjson:1: not a trial line/);
    const missing = await runCli(["view", join(dir, "none", "*.ndjson"), "--out", join(dir, "never")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no results file matches");
    const port = await runCli(["view", bad, "--port", "http"]);
    expect([port.code, port.stderr]).toEqual([2, 'eval-simulate: --port takes a port number (0-65535), not "http"\n']);
  });

  it("exits 1 saying why, never with a stack trace, when it cannot write the site or take the port", async () => {
    const results = join(dir, "one.ndjson");
    writeFileSync(results, `${JSON.stringify(answered("fine"))}\n`);
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const unwritable = await runCli(["view", results, "--out", join(file, "site")]);
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toMatch(/^eval-simulate view: cannot write the viewer into .*a-file\/site: ENOTDIR: not a directory.*\n$/);
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done));
    try {
      const port = (taken.address() as AddressInfo).port;
      const busy = await runCli(["view", results, "--port", String(port)]);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toMatch(/^eval-simulate view: cannot serve the viewer: listen EADDRINUSE: address already in use 127\.0\.0\.1:\d+\n$/);
    } finally {
      await new Promise((done) => taken.close(done));
    }
  });

  it("writes a site whose embedded results cannot close their script element", async () => {
    const results = join(dir, "hostile.ndjson");
    writeFileSync(results, `${JSON.stringify(answered("</script><script>alert(1)</script>"))}\n`);
    const written = await runCli(["view", results, "--out", join(dir, "site")]);
    expect(written.code, written.stderr).toBe(0);
    const page = readFileSync(join(dir, "site", "index.html"), "utf8");
    expect(page.match(/<script/g)).toHaveLength(2);
    expect(page).toContain("\\u003c/script>\\u003cscript>alert(1)");
    expect(readFileSync(join(dir, "site", "viewer.js"), "utf8").length).toBeGreaterThan(10_000);
  });
});
