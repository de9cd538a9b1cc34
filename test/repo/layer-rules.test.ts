import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/examples.js";

const require = createRequire(import.meta.url);
const RULES = (require(`${ROOT}.dependency-cruiser.cjs`) as { forbidden: Array<{ name: string; comment: string }> }).forbidden;
const FIXTURE = `${ROOT}test/fixtures/error-layers`;
const DEPCRUISE = `${ROOT}node_modules/dependency-cruiser/bin/dependency-cruise.mjs`;

/** One import of each kind the rules forbid, in the fixture: [rule, the importing file, what it imports]. */
const VIOLATIONS: Array<[string, string, string]> = [
  ["core-imports-downward-only", "engine/core/files/index.ts", "engine/author/world/index.ts"],
  ["serve-imports-downward-only", "engine/serve/host/index.ts", "engine/eval/runner/index.ts"],
  ["through-the-door", "engine/author/world/index.ts", "engine/author/fakes/load-fakes.ts"],
  ["entries-and-cli-through-the-door", "cli/main.ts", "engine/author/fakes/load-fakes.ts"],
  ["no-circular", "engine/serve/ping/index.ts", "engine/serve/pong/index.ts → engine/serve/ping/index.ts"],
  ["core-and-verify-use-node-only", "engine/judge/verify/index.ts", "../../../node_modules/yaml/dist/index.d.ts"],
  ["verify-imports-only-core", "engine/judge/verify/index.ts", "engine/author/fakes/index.ts"],
  ["engine-never-imports-the-cli", "engine/eval/runner/index.ts", "cli/main.ts"],
  ["opentelemetry-only-on-demand", "engine/serve/telemetry/index.ts", "../../../node_modules/@opentelemetry/api/build/src/index.d.ts"],
  ["otel-tracer-only-by-import", "engine/serve/telemetry/index.ts", "engine/serve/telemetry/otel-tracer.ts"],
];

const squeezed = (text: string) => text.replace(/\s+/g, " ");

describe("the dependency rules (npm run layers)", { timeout: 120_000 }, () => {
  it("fail each forbidden import of the fixture with the rule's name and its advice", () => {
    // What `npm run layers` runs, over the fixture, with the real rules (its config extends them).
    const { scripts } = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8"));
    const args = scripts.layers.split(" ").slice(1);
    expect(args).toEqual(["engine", "cli", "--config", ".dependency-cruiser.cjs", "--output-type", "err-long"]);
    const run = spawnSync(process.execPath, [DEPCRUISE, ...args], { cwd: FIXTURE, encoding: "utf8" });
    const output = squeezed(run.stdout + run.stderr);
    for (const [rule, from, to] of VIOLATIONS) {
      const comment = RULES.find((r) => r.name === rule)?.comment;
      expect(comment, rule).toBeDefined();
      expect(output).toContain(squeezed(`error ${rule}: ${from} → ${to} ${comment}`));
    }
    expect(output).toContain(`x ${VIOLATIONS.length} dependency violations (${VIOLATIONS.length} errors, 0 warnings)`);
    expect(run.status).toBe(VIOLATIONS.length);
  });

  it("have a violation in the fixture for every rule but the downward-only rules of the other layers", () => {
    const fired = new Set(VIOLATIONS.map(([rule]) => rule));
    expect(RULES.map((r) => r.name).filter((name) => !fired.has(name) && !name.endsWith("-imports-downward-only"))).toEqual([]);
  });
});
