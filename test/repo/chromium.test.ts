import { describe, expect, it } from "vitest";
import { chromiumPath, inCi } from "../support/chromium.js";

const missing = () => false;
const present = () => true;

describe("the browser tests' Chromium", () => {
  it("is CHROMIUM_PATH, or Debian's, when it is there", () => {
    expect(chromiumPath({ CHROMIUM_PATH: "/opt/chromium/chrome" }, present)).toBe("/opt/chromium/chrome");
    expect(chromiumPath({}, present)).toBe("/usr/bin/chromium");
  });

  it("is missing on a developer's machine without it, so the browser test is skipped there", () => {
    expect(chromiumPath({}, missing)).toBeUndefined();
    expect(chromiumPath({ CI: "false" }, missing)).toBeUndefined();
  });

  it("fails the browser test in CI when it is missing, instead of skipping it", () => {
    expect(() => chromiumPath({ CI: "true" }, missing)).toThrow(
      "[test] the browser tests need Chromium at /usr/bin/chromium (apt-get install chromium, or set CHROMIUM_PATH); in CI they fail rather than skip",
    );
    expect(() => chromiumPath({ CI: "1", CHROMIUM_PATH: "/nowhere/chrome" }, missing)).toThrow(/need Chromium at \/nowhere\/chrome/);
  });

  it("counts CI as set unless it is empty, false or 0", () => {
    expect([undefined, "", "false", "0", "true", "1", "github"].map((CI) => inCi({ CI }))).toEqual([false, false, false, false, true, true, true]);
  });
});
