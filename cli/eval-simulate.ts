import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defineCommand } from "citty";
import { packageRoot } from "../engine/author/manifest/index.js";

const { version } = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string };

/** The eval-simulate command: each subcommand loads only when it runs, so start-up stays small. */
export const evalSimulate = defineCommand({
  meta: { name: "eval-simulate", version, description: "Fakes of MCP servers and REST APIs for LLM-agent evaluations, from one fakes.yaml." },
  subCommands: {
    serve: () => import("./serve.js").then((m) => m.default),
    capture: () => import("./capture.js").then((m) => m.default),
    check: () => import("./check.js").then((m) => m.default),
    validate: () => import("./validate.js").then((m) => m.default),
    verify: () => import("./verify.js").then((m) => m.default),
    eval: () => import("./eval.js").then((m) => m.default),
    select: () => import("./select.js").then((m) => m.default),
    report: () => import("./report.js").then((m) => m.default),
    schema: () => import("./schema.js").then((m) => m.default),
    types: () => import("./types.js").then((m) => m.default),
    init: () => import("./init.js").then((m) => m.default),
    replay: () => import("./replay.js").then((m) => m.default),
    observe: () => import("./observe.js").then((m) => m.default),
    compare: () => import("./compare.js").then((m) => m.default),
    view: () => import("./view.js").then((m) => m.default),
  },
});
