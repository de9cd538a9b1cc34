import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { withInspector } from "../../engine/serve/inspect/index.js";

// The live page asks for the results panel every few seconds, on the fakes' own port: a results
// file is read again only when it changed, not on every poll (a large one would stall the fakes).
const dir = mkdtempSync(join(tmpdir(), "eval-simulate-panel-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the inspector's results panel", () => {
  it("reads the results file again only when it changed", async () => {
    const file = join(dir, "run.ndjson");
    writeFileSync(file, "one\n");
    let reads = 0;
    const inspector = withInspector(async () => new Response("host"), {
      worlds: () => [],
      results: file,
      readResults: async () => ({ read: ++reads }),
    });
    const panel = async () => (await (await inspector(new Request("http://127.0.0.1/_inspect/results.json"))).json()) as { results: { read: number } };
    expect((await panel()).results).toEqual({ read: 1 });
    expect((await panel()).results).toEqual({ read: 1 });
    writeFileSync(file, "one\ntwo\n");
    expect((await panel()).results).toEqual({ read: 2 });
    expect(reads).toBe(2);
  });
});
