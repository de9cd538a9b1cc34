import { afterEach, describe, expect, it, vi } from "vitest";
import { RunGuard } from "../../engine/author/handlers/jsonata-guard.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("a jsonata run's time limit", () => {
  it("counts the time the run itself took, not the time it spent yielded while other work ran", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(0);
    const guard = new RunGuard({ timeoutMs: 100 });
    vi.setSystemTime(20);
    const yielded = guard.enter(0);
    expect(yielded).toBeInstanceOf(Promise);
    await yielded;
    // Other trials held the event loop for half a second before the run got it back.
    vi.setSystemTime(520);
    expect(() => guard.enter(0)).not.toThrow();
    vi.setSystemTime(590);
    expect(() => guard.check()).not.toThrow();
    // 20 ms before the yield and 81 ms after it: past its 100 ms.
    vi.setSystemTime(601);
    expect(() => guard.enter(0)).toThrow();
  });

  it("still times out a run that never yields the time back", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(0);
    const guard = new RunGuard({ timeoutMs: 100 });
    vi.setSystemTime(5);
    expect(guard.enter(0)).toBeUndefined();
    vi.setSystemTime(101);
    expect(() => guard.enter(0)).toThrow();
  });
});
