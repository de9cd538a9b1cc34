import { defineConfig } from "vitest/config";

// `.ci/run` asks for vitest's JSON report here, to add its counts to node:test's.
const jsonReport = process.env.EVAL_SIMULATE_VITEST_JSON;

export default defineConfig({
  test: {
    include: [
      "test/**/*.test.ts",
      "engine/**/*.test.ts",
      "cli/**/*.test.ts",
      "schema/**/*.test.ts",
      // Each example's own tests of its fakes, as a Recipe keeps them (their node:test twins
      // run under `node --test` in `npm test`).
      "examples/*/tests/**/*.vitest.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests start real servers and real processes; two cores run two files at a time well.
    maxWorkers: 2,
    ...(jsonReport ? { reporters: ["default", "json"], outputFile: { json: jsonReport } } : {}),
  },
});
