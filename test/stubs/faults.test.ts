import { describe, expect, it } from "vitest";
import type { FaultManifest } from "../../engine/author/model/types.js";
import { FaultSet } from "../../engine/serve/stubs/fault-set.js";
import { connect, SERVE_FIXTURE, serve } from "../support/services.js";

const fault = (over: Partial<FaultManifest>): FaultManifest => ({
  fake: "notes",
  target: "*",
  rate: 1,
  seed: 1,
  source: { file: "f", line: 1, column: 1, path: "p" },
  ...over,
});

describe("faults", () => {
  it("draw the same latencies every run for the same seed, inside the range", () => {
    const run = () => {
      const faults = new FaultSet([fault({ latencyMs: [100, 400], seed: 42 })]);
      return Array.from({ length: 20 }, () => faults.effect("notes", "list").latencyMs);
    };
    const first = run();
    expect(run()).toEqual(first);
    expect(first.every((ms) => ms >= 100 && ms <= 400)).toBe(true);
    expect(new Set(first).size).toBeGreaterThan(5);
  });

  it("hit about the share of calls `rate` says, the same calls every run", () => {
    const hits = () => {
      const faults = new FaultSet([fault({ http: "connection_reset", rate: 0.3, seed: 3 })]);
      return Array.from({ length: 1000 }, () => faults.effect("notes", "x").http !== undefined);
    };
    const first = hits();
    expect(hits()).toEqual(first);
    const share = first.filter(Boolean).length / 1000;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
  });

  it("only touch the fake and tool they name", () => {
    const faults = new FaultSet([fault({ target: "create-note", latencyMs: 10 })]);
    expect(faults.effect("notes", "create-note").latencyMs).toBe(10);
    expect(faults.effect("notes", "list-notes").latencyMs).toBe(0);
    expect(faults.effect("other", "create-note").latencyMs).toBe(0);
  });

  it("delay a served call by at least the drawn latency (a scenario's faults)", async () => {
    const services = await serve(SERVE_FIXTURE, { scenario: "slow-net" });
    const client = await connect(services.url("notes"));
    await client.callTool({ name: "export-notes", arguments: {} });
    const [entry] = services.calls("notes");
    expect(entry.durationMs).toBeGreaterThanOrEqual(50);
    await client.close();
    await services.close();
  });
});
