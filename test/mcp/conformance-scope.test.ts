import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { IN_SCOPE, OUT_OF_SCOPE } from "../../conformance/scope.js";
import { ROOT } from "../support/examples.js";

/** The conformance doc the README links. */
const section = readFileSync(`${ROOT}docs/conformance.md`, "utf8");
const named = (text: string) => [...text.matchAll(/`([a-z0-9*-]+)`/g)].map((match) => match[1]);

describe("the conformance scope the docs state", () => {
  it("lists as in scope exactly the scenarios npm run conformance requires to pass", () => {
    const paragraph = /In scope, and passing: ([\s\S]*?)\n\n/.exec(section)?.[1] ?? "";
    expect(named(paragraph).sort()).toEqual([...IN_SCOPE].sort());
  });

  it("gives every out-of-scope scenario a row, and no scenario is both", () => {
    const table = section.slice(section.indexOf("| scenarios | why |"));
    const rows = named(
      table
        .split("\n")
        .map((line) => line.split("|")[1] ?? "")
        .join(" "),
    );
    for (const scenario of Object.keys(OUT_OF_SCOPE)) {
      const covered = rows.some((row) => (row.endsWith("*") ? scenario.startsWith(row.slice(0, -1)) : row === scenario));
      expect(covered, scenario).toBe(true);
      expect(IN_SCOPE).not.toContain(scenario);
    }
  });
});
