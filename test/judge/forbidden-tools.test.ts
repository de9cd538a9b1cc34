import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoadedFakes, loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { checkEvals, type EvalCase, judgeRun, scoreOf } from "../../engine/entries/judge.js";
import { ROOT } from "../support/examples.js";
import { CLOCK } from "../support/services.js";

const MANIFEST = join(ROOT, "test/fixtures/keyed-orders/fakes.yaml");
const call = (tool: string, args: Record<string, unknown> = {}) => ({ server: "shop", tool, args, result: { content: [{ type: "text", text: "{}" }] } });
const world = { shop: { orders: {} } };

let fakes: LoadedFakes;
const dirs: string[] = [];
beforeAll(async () => {
  fakes = await loadFakes(MANIFEST, { clock: CLOCK });
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("forbidden: tools a case's run must not call", () => {
  it("passes a run that never calls them and fails one that does, naming the calls", async () => {
    const c: EvalCase = { id: "no-shipping", expect: { forbidden: ["ship-order"], weights: { forbidden: 2 } } };
    const clean = await judgeRun({ fakes, case: c, run: { initial: world, final: world, calls: [call("list-orders")] } });
    expect(clean.results).toMatchObject([
      { kind: "forbidden", assertion: "forbidden[0] shop/ship-order", status: "passed", message: "no call to shop/ship-order" },
    ]);
    const calls = [call("list-orders"), call("ship-order", { order_id: "o-1" }), call("ship-order", { order_id: "o-2" })];
    const dirty = await judgeRun({ fakes, case: c, run: { initial: world, final: world, calls } });
    expect(dirty.results[0]).toMatchObject({ status: "failed", weight: 2, message: "shop/ship-order must not be called; it was called 2 times (#2, #3)" });
    expect(dirty.verdict).toBe("fail");
    expect(scoreOf(dirty.results).score).toBe(0);
  });

  it("refuses at validate a forbidden tool no fake serves, with a did-you-mean", async () => {
    const dir = mkdtempSync(join(tmpdir(), "forbidden-"));
    dirs.push(dir);
    const file = join(dir, "evals.yaml");
    // An evals file names its fakes in its own folder.
    copyFileSync(MANIFEST, join(dir, "fakes.yaml"));
    writeFileSync(file, "version: 1\nfakes: fakes.yaml\ncases:\n  - id: c\n    expect:\n      forbidden: [shop/ship-ordr]\n");
    const checked = await checkEvals(file);
    expect(checked.diagnostics.map((d) => `${d.code} ${d.path}:${d.line}: ${d.message}`)).toEqual([
      'E_UNKNOWN_TOOL cases[0].expect.forbidden[0]:6: no fake serves a tool named "shop/ship-ordr". Did you mean "shop/ship-order"?',
    ]);
  });
});
