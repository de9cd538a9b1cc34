import type { LoadedFakes } from "../../author/fakes/index.js";
import type { StatesByFake } from "../../core/record/index.js";
import { fakeHash } from "../../core/record/index.js";
import { judgeCalls } from "./call-expectations.js";
import { judgeConversation } from "./conversation-checks.js";
import { fakeMaps } from "./fake-maps.js";
import { judgedCalls } from "./fake-maps.js";
import { freshWorld } from "./fresh-world.js";
import { judgeGolden } from "./golden.js";
import { type History, rebuildHistory } from "./history.js";
import type { Run } from "./run.js";
import { judgeRubrics, type RubricJudge } from "./rubrics.js";
import { scoreOf, verdictOf, weighResults } from "./score.js";
import { judgeState } from "./state-expectations.js";
import { type AssertionResult, type JudgedCase, notEvaluated, passed, type Verdict } from "./types.js";
import { judgeAnswer, judgeAsserts, judgeHistory } from "./world-predicates.js";

/** What `judgeRun` takes: the loaded fakes, the case, the run to judge, and who grades its rubrics. */
export interface JudgeInput {
  fakes: LoadedFakes;
  case: JudgedCase;
  run: Run;
  /** Grades the case's `rubrics` (without one they are not evaluated, never passed). */
  rubrics?: RubricJudge;
}

/**
 * With a clock, the case says exactly which world the run must start from: a run served from
 * another scenario or clock is not this case's run, and judging it would mislead.
 */
async function startingWorld(input: JudgeInput): Promise<AssertionResult | undefined> {
  const { case: c, run, fakes } = input;
  if (c.clock === undefined) return undefined;
  let expected: StatesByFake;
  try {
    expected = await freshWorld(fakes, c.scenario, c.clock);
  } catch (error) {
    return notEvaluated("run", "run: starting world", `the case's world cannot be built: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`);
  }
  const differing: string[] = [];
  for (const id of Object.keys(expected)) {
    const want = fakeHash(expected[id]);
    const got = fakeHash(run.initial[id] ?? {});
    if (want.hash === got.hash) continue;
    for (const entity of new Set([...Object.keys(want.entities), ...Object.keys(got.entities)]))
      if (want.entities[entity] !== got.entities[entity]) differing.push(`${id}.${entity}`);
  }
  const what = `scenario "${c.scenario ?? fakes.world.defaultScenario}" at ${c.clock}`;
  if (differing.length === 0) return passed("run", "run: starting world", `the run started from ${what}`);
  return notEvaluated(
    "run",
    "run: starting world",
    `the run did not start from ${what}: ${differing.join(", ")} differ${differing.length === 1 ? "s" : ""} (serve it with --scenario and --clock as the case says)`,
    { differing },
  );
}

/**
 * Judges one run against one case: calls, state, JSONata assertions, milestones and minefields
 * over the commit history, the golden world, the final answer, and rubrics (by the judge it is
 * given). Every result carries a message with its evidence (the nearest call, the records that
 * differ, the commit that broke a rule) and its weight; the verdict comes with the trial's score.
 *
 * @example
 * const fakes = await loadFakes("fakes.yaml");
 * const verdict = await judgeRun({ fakes, case: evals.cases[0], run: readRun("runs/1") });
 * verdict.verdict; // "pass" | "fail" | "not_evaluated"
 */
export async function judgeRun(input: JudgeInput): Promise<Verdict> {
  const started = performance.now();
  const { case: c, run, fakes } = input;
  const expect = c.expect ?? {};
  const maps = fakeMaps(fakes);
  const calls = judgedCalls(run.calls, maps.maps);
  const history: History =
    run.history === false
      ? { ok: false, reason: "a run fetched from a live server carries no commit history (judge a run folder from serve --run-dir)" }
      : rebuildHistory(run.initial, run.final, calls);
  // The manifest's shared functions are callable from every evals expression, as from its handlers.
  const functions = fakes.manifest.functions ?? {};
  const results: AssertionResult[] = [];
  const start = await startingWorld(input);
  if (start) results.push(start);
  results.push(...judgeCalls(expect, calls, maps));
  if (expect.state) {
    results.push(...judgeState(expect.state, run.initial, run.final, maps, history));
    if (expect.state.assert) results.push(...(await judgeAsserts(expect.state.assert, { initial: run.initial, final: run.final, calls, history }, functions)));
  }
  results.push(...(await judgeHistory(expect, history, functions)));
  if (expect.golden)
    results.push(await judgeGolden(expect.golden, fakes, maps, { scenario: c.scenario, clock: c.clock, initial: run.initial, final: run.final }));
  if (expect.answer) results.push(...(await judgeAnswer(expect.answer, run.answer, run.final, functions)));
  results.push(...(await judgeConversation(expect, run.transcript, run.answer, run.final, functions)));
  const rubrics = await judgeRubrics(
    { id: c.id, prompt: c.prompt, expect },
    { initial: run.initial, final: run.final, calls, answer: run.answer, transcript: run.transcript, functions },
    input.rubrics,
  );
  results.push(...rubrics.results);
  const weighed = weighResults(expect, results);
  return {
    case: c.id,
    verdict: verdictOf(weighed, { minScore: c.minScore }),
    results: weighed,
    score: scoreOf(weighed),
    ...(rubrics.cost ? { judge: rubrics.cost } : {}),
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  };
}
