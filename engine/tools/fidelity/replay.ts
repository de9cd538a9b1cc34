import { connectMcpTarget, type McpServerTarget } from "../../author/capture/index.js";
import { loadFakes } from "../../author/fakes/index.js";
import { startServices } from "../../serve/host/index.js";
import { openClient } from "../testing/index.js";
import { answerDifferences, callForAnswer, readForAnswer, type CallAnswer, type ToolCaller } from "./call-answer.js";
import type { ReplayCall } from "./calls-file.js";
import { onFreshTarget } from "./fresh-target.js";
import { maskAnswer, parseIgnore } from "./answer-ignore.js";

/** What `replay` runs: the calls, the real server, and the fake's manifest and world. */
export interface ReplayOptions {
  /** The fakes.yaml that declares the fake. */
  manifest: string;
  /** The fake's id; the manifest's only MCP fake, or the one the calls name, when unset. */
  id?: string;
  calls: ReplayCall[];
  /** The real server. */
  target: McpServerTarget;
  /** The fake's starting world (the manifest's default scenario when unset). */
  scenario?: string;
  /** The fake's clock (now when unset). */
  clock?: string;
  /** Each call's time limit on either side (60 s by default). */
  timeoutMs?: number;
  /** A shell command run before the real server starts (`{{tmp}}` filled in as in the server's command). */
  reset?: string;
  /** What to leave out of every answer compared (see `parseIgnore`); a call's own `ignore` adds to it. */
  ignore?: string[];
}

/** One call on both sides. */
export interface ReplayedCall {
  call: ReplayCall;
  real: CallAnswer;
  fake: CallAnswer;
  /** Empty when the fake answered as the real server did. */
  differences: string[];
  /** What was left out of the comparison (`uuid ×2`), marked `‹ignored›` in `real` and `fake`; absent when nothing was. */
  ignored?: string[];
}

/**
 * Runs the same calls, in order, on the real server and on a fresh fake world, and compares each
 * pair of answers (`answerDifferences`): the drift and fidelity test a Recipe keeps. The real
 * server starts fresh each replay: `{{tmp}}` in its command is a new folder, `reset` runs first.
 *
 * @example
 * const { calls } = await replay({ manifest: "fakes.yaml", calls: readCalls("calls.yaml"), target: { command: ["npx", "mcp-server-memory"] } });
 * calls.filter((c) => c.differences.length > 0);
 */
export async function replay(options: ReplayOptions): Promise<{ id: string; calls: ReplayedCall[] }> {
  const { fakes, world } = await loadFakes(options.manifest, options.clock === undefined ? {} : { clock: options.clock });
  const id = fakeId(
    Object.keys(fakes).filter((key) => fakes[key].kind === "mcp"),
    options,
  );
  const calls = options.calls.filter((call) => call.server === undefined || call.server === id);
  // Every ignore is read before anything starts, so a bad one is refused at once.
  const common = (options.ignore ?? []).map(parseIgnore);
  const ignoresOf = new Map(calls.map((call) => [call, [...common, ...(call.ignore ?? []).map(parseIgnore)]]));
  const services = await startServices(fakes, {
    world,
    ...(options.scenario !== undefined && { scenario: options.scenario }),
    ...(options.clock !== undefined && { clock: options.clock }),
  });
  let real: Awaited<ReturnType<typeof connectMcpTarget>> | undefined;
  let fake: Awaited<ReturnType<typeof openClient>> | undefined;
  try {
    return await onFreshTarget(options.target, options.reset, async (target) => {
      real = await connectMcpTarget(target, { name: "eval-simulate-replay", timeoutMs: options.timeoutMs });
      fake = await openClient(services.url(id));
      const replayed: ReplayedCall[] = [];
      for (const call of calls) {
        const ask = (client: ToolCaller) =>
          call.read !== undefined ? readForAnswer(client, call.read, options.timeoutMs) : callForAnswer(client, call.tool, call.args, options.timeoutMs);
        const realAnswer = await ask(real.client as unknown as ToolCaller);
        const fakeAnswer = await ask(fake as unknown as ToolCaller);
        const ignores = ignoresOf.get(call) ?? [];
        const realSide = maskAnswer(realAnswer, ignores);
        const fakeSide = maskAnswer(fakeAnswer, ignores);
        const ignored = [...new Set([...realSide.ignored, ...fakeSide.ignored])];
        replayed.push({
          call,
          real: realSide.answer,
          fake: fakeSide.answer,
          differences: answerDifferences(realSide.answer, fakeSide.answer),
          ...(ignored.length > 0 && { ignored }),
        });
      }
      // The real server stops before its fresh folder is removed.
      await real.client.close().catch(() => undefined);
      return { id, calls: replayed };
    });
  } finally {
    await fake?.close().catch(() => undefined);
    await real?.client.close().catch(() => undefined);
    await services.close();
  }
}

function fakeId(mcp: string[], options: ReplayOptions): string {
  if (options.id !== undefined) {
    if (!mcp.includes(options.id)) throw new Error(`[eval-simulate] ${options.manifest} has no MCP fake "${options.id}" (it has ${mcp.join(", ") || "none"})`);
    return options.id;
  }
  const named = [...new Set(options.calls.map((call) => call.server).filter((s): s is string => s !== undefined && mcp.includes(s)))];
  if (named.length === 1) return named[0];
  if (mcp.length === 1) return mcp[0];
  throw new Error(`[eval-simulate] name the fake to replay against with --id (${options.manifest} has ${mcp.join(", ") || "no MCP fakes"})`);
}
