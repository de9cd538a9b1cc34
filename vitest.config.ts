import { defineConfig } from "vitest/config";

// `.ci/run` asks for vitest's JSON report here, to add its counts to node:test's.
const jsonReport = process.env.EVAL_SIMULATE_VITEST_JSON;

// GitHub's workflow parser (test/cluster/) is loaded through vite, whose warnings about the
// sources its package leaves out of its source maps say nothing about this project.
const quietParserSourcemaps = {
  name: "quiet-workflow-parser-sourcemaps",
  configResolved(config: { logger: { warnOnce(message: string, options?: object): void } }) {
    const warnOnce = config.logger.warnOnce.bind(config.logger);
    config.logger.warnOnce = (message, options) => (/Sourcemap for .*@actions\/workflow-parser/.test(message) ? undefined : warnOnce(message, options));
  },
};

export default defineConfig({
  plugins: [quietParserSourcemaps],
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
    // GitHub's workflow parser imports its schema JSON without an import attribute, which only a
    // bundler accepts: vite loads it (test/cluster/ checks the example workflow with it).
    server: { deps: { inline: ["@actions/workflow-parser"] } },
    ...(jsonReport ? { reporters: ["default", "json"], outputFile: { json: jsonReport } } : {}),
  },
});
