// The engine's import rules, checked by `npm run layers` (part of `npm test`): each layer imports
// only the layers below it, every folder is entered through its index.ts, nothing imports in a
// circle. ARCHITECTURE.md draws the same map. Type-only imports count: they are parsed with swc,
// since the TypeScript 7 package has no compiler API for dependency-cruiser to use.
const LAYERS = ["core", "author", "serve", "judge", "eval", "tools", "entries"];

const downwardOnly = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `${layer}-imports-downward-only`,
  comment: `engine/${layer}/ may import only ${index === 0 ? "Node built-ins" : `the layers below it (${LAYERS.slice(0, index).join(", ")})`}: move the piece both need down, or hand it in from above`,
  severity: "error",
  from: { path: `^engine/${layer}/` },
  to: { path: `^engine/(${LAYERS.slice(index + 1).join("|")})/|^engine/index\\.ts$` },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A circle of imports: move what both sides need into a folder below them",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...downwardOnly,
    {
      name: "through-the-door",
      comment: "Another folder is entered only through its index.ts: export what you need from there",
      severity: "error",
      from: { path: "^(engine/[^/]+/[^/]+)/" },
      to: { path: "^engine/[^/]+/[^/]+/", pathNot: ["^$1/", "^engine/[^/]+/[^/]+/index\\.ts$"] },
    },
    {
      name: "entries-and-cli-through-the-door",
      comment: "The package's entry points and the CLI import folders only through their index.ts",
      severity: "error",
      from: { path: "^(cli/|engine/entries/|engine/index\\.ts$)" },
      to: { path: "^engine/[^/]+/[^/]+/", pathNot: "^engine/[^/]+/[^/]+/index\\.ts$" },
    },
    {
      name: "core-and-verify-use-node-only",
      comment:
        "engine/core/ and engine/judge/verify/ (the eval-simulate/verify entry) import Node built-ins only, so a harness's verifier needs no other package",
      severity: "error",
      from: { path: "^engine/(core|judge/verify)/" },
      to: { dependencyTypesNot: ["core", "local"] },
    },
    {
      name: "verify-imports-only-core",
      comment: "engine/judge/verify/ imports nothing of the engine but engine/core/",
      severity: "error",
      from: { path: "^engine/judge/verify/" },
      to: { path: "^engine/", pathNot: "^engine/(core|judge/verify)/" },
    },
    {
      name: "opentelemetry-only-on-demand",
      comment:
        "The OpenTelemetry SDK is loaded only when tracing is on: only engine/serve/telemetry/otel-tracer.ts imports it, and only tracing.ts imports that file, with import()",
      severity: "error",
      from: { pathNot: "^engine/serve/telemetry/otel-tracer\\.ts$" },
      to: { path: "(^|/)node_modules/@opentelemetry/" },
    },
    {
      name: "otel-tracer-only-by-import",
      comment: "engine/serve/telemetry/otel-tracer.ts loads the SDK: import it with import() (tracing.ts), never statically",
      severity: "error",
      from: {},
      to: { path: "^engine/serve/telemetry/otel-tracer\\.ts$", dependencyTypesNot: ["dynamic-import"] },
    },
    {
      name: "engine-never-imports-the-cli",
      comment: "The CLI is the top: the engine hands it functions, never the reverse",
      severity: "error",
      from: { path: "^engine/" },
      to: { path: "^cli/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Packages stay in the graph as leaves (doNotFollow), so the rules about them can see them.
    includeOnly: ["^(engine|cli)/", "(^|/)node_modules/"],
    tsPreCompilationDeps: true,
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "node", "default", "types"], extensions: [".ts", ".js", ".d.ts"] },
  },
};
