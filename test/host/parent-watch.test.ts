import { describe, expect, it, vi } from "vitest";
import { watchParent } from "../../engine/serve/host/parent-watch.js";

const npm = { npm_command: "exec" };

describe("watching the parent npm started the server under", () => {
  it("notices a parent lost before the watch began (npx killed while the server was starting)", async () => {
    const orphaned = vi.fn();
    // The parent the process started under is no longer its parent by the time the watch begins.
    const stop = watchParent(orphaned, { env: npm, everyMs: 10, parent: process.ppid + 1 });
    await vi.waitFor(() => expect(orphaned).toHaveBeenCalledTimes(1));
    stop();
  });

  it("stays quiet while the parent it started under is still there", async () => {
    const orphaned = vi.fn();
    const stop = watchParent(orphaned, { env: npm, everyMs: 10 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    stop();
    expect(orphaned).not.toHaveBeenCalled();
  });

  it("watches nothing for a process npm did not start", async () => {
    const orphaned = vi.fn();
    const stop = watchParent(orphaned, { env: {}, everyMs: 10, parent: process.ppid + 1 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    stop();
    expect(orphaned).not.toHaveBeenCalled();
  });
});
