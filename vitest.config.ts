import { configDefaults, defineConfig } from "vitest/config";

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

/** Every test file. */
const TESTS = [
  "test/**/*.test.ts",
  "engine/**/*.test.ts",
  "cli/**/*.test.ts",
  "schema/**/*.test.ts",
  // Each example's own tests of its fakes, as a Recipe keeps them (their node:test twins
  // run under `node --test` in `npm test`).
  "examples/*/tests/**/*.vitest.ts",
];

/** The tests that drive a real browser (playwright-core and Chromium). */
const BROWSER = ["test/inspect/inspector-browser.test.ts", "test/view/viewer-browser.test.ts"];

/**
 * The tests that start a process (the built CLI, node --test, an agent, a real MCP server,
 * depcruise) or listen on a port (the fakes served in-process, a scripted model provider).
 * Every other test is a unit test, and the unit project fails one that does either
 * (test/support/unit-guard.ts), so a test that does is listed here. test/README.md says more.
 */
const PROCESS = [
  // Folders whose every test does.
  "test/{capture,cli,cluster,fidelity,hosts,judge,scaffold,sessions,stubs,telemetry,typegen}/**/*.test.ts",
  "test/docs/readme-five-minutes.test.ts",
  "examples/*/tests/**/*.vitest.ts",
  "test/bench-smoke.test.ts",
  "test/cassettes/offline-agent.test.ts",
  "test/cassettes/model-endpoints.test.ts",
  "test/cassettes/command-host-models.test.ts",
  "test/cassettes/official-sdks.test.ts",
  "test/answers/answered.test.ts",
  "test/api/{octokit,responses,routing,transactions,validation}.test.ts",
  "test/checks/{allow-list,check-command,check-recipe-fakes}.test.ts",
  "test/handlers/jsonata-watchdog.test.ts",
  "test/host/{layered-world,api-fakes,browser-guard,jsonata-one-item,shared-functions,fake-subsets,emulate-builtin,evidence,evidence-files,hardening,hostile-values,hostile-values-fuzz,http-hostile-inputs}.test.ts",
  "test/host/{jsonata-number-fuzz,jsonata-range-limits,record-after-kill,serve-mcp,transactions,typescript-fakes,world-module,world-size-limit}.test.ts",
  "test/inspect/inspector-token.test.ts",
  "test/journal/{redaction-serve,secret-shapes}.test.ts",
  "test/manifest/recipe-files.test.ts",
  "test/mcp/{bad-requests,changing-tool-list,cursor-and-batches,error-texts,malformed-results,origin-check,protocol-features,tools-call,tools-list}.test.ts",
  "test/repo/{build-bin,bundle-licences,layer-rules}.test.ts",
  "test/runner/{command-host-processes,model-providers,run-evals-bad-calls,run-evals-command,run-evals-deep-arguments}.test.ts",
  "test/runner/{rubric-judge,run-evals-subsets,run-evals-isolation,run-evals-model,run-evals-model-timeouts,run-evals-script,run-evals-variant}.test.ts",
  "test/runner/{results-file-writers,resume-changed-cases,run-evals-client-answers,client-answers-hosts,trial-line-caps}.test.ts",
  "test/runner/{merge-results,provider-limits,run-evals-workers,shards,golden-folder-kill}.test.ts",
  "test/runner/{conversations-model,conversations-script}.test.ts",
  "test/selection/{bad-calls,selection-cli,selection-run,variant-compare}.test.ts",
  "test/testing/testing-helpers.test.ts",
  "test/verify/{api-runs,load-manifests,python-parity,python-verifier,recorded-runs}.test.ts",
  "test/world/label-id.test.ts",
];

/** Process and browser tests run dist/: this global setup builds it first when a source is newer. */
const FRESH_DIST = "test/support/fresh-dist.ts";

export default defineConfig({
  plugins: [quietParserSourcemaps],
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests start real servers and real processes; two cores run two files at a time well.
    maxWorkers: 2,
    // GitHub's workflow parser imports its schema JSON without an import attribute, which only a
    // bundler accepts: vite loads it (test/cluster/ checks the example workflow with it).
    server: { deps: { inline: ["@actions/workflow-parser"] } },
    ...(jsonReport ? { reporters: ["default", "json"], outputFile: { json: jsonReport } } : {}),
    projects: [
      {
        extends: true,
        test: { name: "unit", include: TESTS, exclude: [...configDefaults.exclude, ...PROCESS, ...BROWSER], setupFiles: ["test/support/unit-guard.ts"] },
      },
      { extends: true, test: { name: "process", include: PROCESS, globalSetup: [FRESH_DIST] } },
      { extends: true, test: { name: "browser", include: BROWSER, globalSetup: [FRESH_DIST] } },
    ],
  },
});
