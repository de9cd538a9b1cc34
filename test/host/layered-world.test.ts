import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isLayered, sameJson } from "../../engine/core/record/index.js";
import { loadState } from "../../engine/entries/verify.js";
import { runEvals } from "../../engine/entries/runner.js";
import { connect, serve, textOf } from "../support/services.js";

// 5,000 orders keyed by id: a TypeScript write lays its changes over the committed entity
// (engine/core/record/layered-object.ts) instead of copying it. What a client, the state file,
// the judge and golden see must not tell the difference.
const FIXTURE = new URL("../fixtures/layered-world/", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "eval-simulate-layered-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Order = { id: string; status: string; total: number };

describe("a world of 5,000 records written by TypeScript handlers", () => {
  it("answers, serves its state and writes its state file as a copied entity would", async () => {
    const stateFile = join(dir, "state.json");
    const services = await serve(join(FIXTURE, "fakes.yaml"), { stateFile });
    const client = await connect(services.url("shop"));
    const call = async (name: string, args: Record<string, unknown>) => JSON.parse(textOf(await client.callTool({ name, arguments: args })));
    expect(await call("set-status", { id: "o-00042", status: "shipped" })).toEqual({ id: "o-00042", status: "shipped", total: 42 });
    expect(isLayered(services.states.shop.orders)).toBe(true);
    expect(await call("add-order", { id: "o-new" })).toEqual({ added: "o-new", orders: 5001 });
    expect(await call("remove-order", { id: "o-00007" })).toEqual({ removed: "o-00007" });
    // JSONata reads the layer as the object it stands for: keys in order, the removed one gone.
    expect(await call("get-order", { id: "o-00042" })).toEqual({ id: "o-00042", status: "shipped", total: 42 });
    expect(await call("count-orders", {})).toEqual({ orders: 5000, last: "o-new" });
    // A failed call changes nothing: the record is still there, the layer the same object.
    const before = services.states.shop.orders;
    expect(textOf(await client.callTool({ name: "add-order", arguments: { id: "o-new" } }))).toMatch(/order o-new exists/);
    expect(services.states.shop.orders).toBe(before);
    // A JSONata write over a layer makes a plain object of it again, and the next TypeScript write lays over that.
    expect(await call("close-jsonata", { id: "o-00042" })).toEqual({ id: "o-00042", status: "closed", total: 42 });
    expect(isLayered(services.states.shop.orders)).toBe(false);
    expect(await call("set-status", { id: "o-00001", status: "lost" })).toMatchObject({ status: "lost" });
    expect(isLayered(services.states.shop.orders)).toBe(true);

    const admin = await (await fetch(`http://127.0.0.1:${services.port}/shop/admin/state`)).json();
    const orders = admin.orders as Record<string, Order>;
    const keys = Object.keys(orders);
    expect(keys).toHaveLength(5000);
    expect(keys.at(-1)).toBe("o-new");
    expect(keys).not.toContain("o-00007");
    expect([orders["o-00042"].status, orders["o-00001"].status, orders["o-00002"].status]).toEqual(["closed", "lost", "open"]);
    // The snapshot and its log read back to the world the client changed, and so does the file written at close.
    expect(sameJson(loadState(stateFile).shop, admin)).toBe(true);
    await client.close();
    await services.close();
    expect(JSON.parse(readFileSync(stateFile, "utf8")).shop).toEqual(admin);
  });

  it("is judged by golden and state expectations as a copied entity is", async () => {
    const out = join(dir, "results.ndjson");
    const result = await runEvals({ evals: join(FIXTURE, "evals.yaml"), dry: true, out, concurrency: 1 });
    const verdicts = result.lines.map((line) => `${line.case} ${line.status}`).sort();
    expect(verdicts).toEqual(["ship pass", "ship pass", "ship-the-wrong-order fail"]);
    const wrong = result.lines.find((line) => line.case === "ship-the-wrong-order")?.assertions as Array<{ kind: string; message: string }>;
    expect(wrong.find((a) => a.kind === "golden")?.message).toBe(
      'the final world differs from the golden world: shop.orders: record "o-00042": status is "open" in the run, "shipped" in the golden world; record "o-00043": status is "shipped" in the run, "open" in the golden world',
    );
  });
});
