import { resolve } from "node:path";
import { type ArgsDef, defineCommand } from "citty";
import type { TrialLine } from "../engine/eval/results/index.js";
import { listen } from "../engine/serve/http/index.js";
import { viewData, viewHandler, writeViewSite } from "../engine/tools/view/index.js";
import { EXIT, refuseUnknownFlags } from "./exit-codes.js";
import { readRun } from "./results-files.js";

const args = {
  results: {
    type: "positional",
    required: true,
    description: "Results (NDJSON) of one run each: a file, a folder or a quoted glob (shards are merged); two runs are compared",
    valueHint: "results.ndjson",
  },
  out: { type: "string", description: "Write the viewer into this folder (index.html and its bundle) instead of serving it", valueHint: "site/" },
  port: { type: "string", description: "The loopback port to serve on (default 0: any free port)" },
} satisfies ArgsDef;

/** `eval-simulate view run.ndjson [other.ndjson]`: the runs as pages, served on loopback or written to a folder. */
export default defineCommand({
  meta: {
    name: "view",
    description:
      "Open finished runs in a browser: per-case pass rates and pass^k curves, each case's trials side by side, each trial's transcript, assertions and world at any commit, two runs compared, tool selection. Served on 127.0.0.1 until Ctrl-C, or written with --out. Exit 0, 1 when the folder cannot be written or the port taken, or 2 on a usage error.",
  },
  args,
  async run({ args: parsed, rawArgs }) {
    if (!refuseUnknownFlags(rawArgs, args)) return;
    const port = parsed.port === undefined ? 0 : Number(parsed.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      process.stderr.write(`eval-simulate: --port takes a port number (0-65535), not "${parsed.port}"\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const runs: Array<{ files: string[]; lines: TrialLine[] }> = [];
    for (const arg of parsed._.length > 0 ? parsed._ : [parsed.results]) {
      const run = readRun([arg]);
      if ("error" in run) {
        process.stderr.write(`eval-simulate view: ${run.error}\n`);
        process.exitCode = EXIT.usage;
        return;
      }
      runs.push({ files: [arg], lines: run.lines });
    }
    const data = viewData(runs);
    // A folder it cannot write or a port it cannot take is said plainly, never as a stack trace.
    const cannot = (what: string, error: unknown) => {
      process.stderr.write(`eval-simulate view: ${what}: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}\n`);
      process.exitCode = EXIT.invalid;
    };
    if (parsed.out !== undefined) {
      try {
        writeViewSite(resolve(parsed.out), data);
      } catch (error) {
        return cannot(`cannot write the viewer into ${resolve(parsed.out)}`, error);
      }
      process.stdout.write(`viewer: ${resolve(parsed.out, "index.html")}\n`);
      return;
    }
    let served: Awaited<ReturnType<typeof listen>>;
    try {
      served = await listen(viewHandler(data), { port, host: "127.0.0.1" });
    } catch (error) {
      return cannot("cannot serve the viewer", error);
    }
    process.stdout.write(`viewer: ${served.url}/\n(Ctrl-C stops it)\n`);
    await new Promise<void>((done) => {
      const stop = () => void served.close().then(done);
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
  },
});
