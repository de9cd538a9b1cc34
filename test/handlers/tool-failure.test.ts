import { describe, expect, it } from "vitest";
import { fail } from "../../engine/index.js";
import { isToolFailure, ToolFailure } from "../../engine/serve/runtime/index.js";

describe("fail imported from eval-simulate", () => {
  it("throws the refusal the context's fail throws: the call becomes a tool error with its text", () => {
    let thrown: unknown;
    try {
      fail("No task 7");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolFailure);
    expect(isToolFailure(thrown)).toBe(true);
    expect((thrown as Error).message).toBe("No task 7");
  });
});
