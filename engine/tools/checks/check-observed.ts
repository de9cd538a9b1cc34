/**
 * Check (f): the fake answers every observed tool as the real server did. Each recorded
 * successful answer of an allowed tool the fake's observations cover is held to the observed
 * answer (observed-answer.ts); an observed tool without a recorded successful answer fails, since
 * nothing would check it. Allowed tools with no observation are named in a warning on stderr.
 */
import { filePath } from "../testing/index.js";
import { excerpt, failOn, NotChecked } from "./check-failure.js";
import { observedAnswerProblems } from "./observed-answer.js";
import { answeredSuccessfully, isRecordFile, readRecording, recordedText } from "./recorded-calls.js";
import type { RecipeContext } from "./recipe-context.js";

/** What a passing check says beside its pass, or why it could not check everything. */
export type CheckNote = string | NotChecked | undefined;

/**
 * Fails, naming each observed tool whose recorded answers do not read like the real server's.
 *
 * @example await checkObserved(context, "crm");
 */
export async function checkObserved(context: RecipeContext, id: string): Promise<CheckNote> {
  const observations = context.observed(id);
  const required = context.options.requireObserved === true;
  const allowed = context.allowed(id);
  if (observations === undefined) {
    const reason = `${id} has no observations (name an observed.json under servers.${id}.observed; eval-simulate observe writes one)`;
    if (required)
      failOn(
        [`${allowed.join(", ")} ${allowed.length === 1 ? "has" : "have"} no observation`],
        `${id} must be observed (requireObserved) but ${reason}`,
        `observe the real server: eval-simulate observe <calls> --id ${id}`,
      );
    return new NotChecked(reason);
  }
  const observed = observations.file.tools;
  const unobserved = allowed.filter((name) => observed[name] === undefined);
  const recording = context.options.record ?? context.options.recording;
  if (recording === undefined) {
    if (required)
      failOn(
        ["no record was given (checkRecipeFakes record, check --record)"],
        `${id} must be observed (requireObserved), but no recorded answer was held to the observations`,
        "record the contract tests' calls and pass the record",
      );
    return new NotChecked(`${id} has observations but no record was given (checkRecipeFakes record, check --record): no answer was held to them`);
  }
  const file = filePath(recording);
  // A calls list (YAML or JSON, as replay reads) holds the calls but not what the fake answered.
  if (!isRecordFile(file))
    return new NotChecked(
      `${file} is a calls list without answers, so no answer of ${id} was held to its observations: give a record (serve --record, or the contract tests' recording)`,
    );
  const answered = readRecording(file).filter((call) => call.server === id && answeredSuccessfully(call));
  const problems: string[] = [];
  if (required) for (const name of unobserved) problems.push(`"${name}" has no observation in ${observations.source} (requireObserved)`);
  for (const name of allowed.filter((n) => observed[n] !== undefined)) {
    const calls = answered.filter((call) => call.tool === name);
    const observation = observed[name];
    if (calls.length === 0) {
      problems.push(
        `"${name}" was observed (${observation.sampled} samples) but ${file} holds no successful answer of it: call it in a contract test that records`,
      );
      continue;
    }
    for (const call of calls) {
      const text = recordedText(call);
      const parts = call.result.structuredContent === undefined ? { text } : { text, structured: call.result.structuredContent };
      const found = observedAnswerProblems(observation, parts);
      for (const problem of found.slice(0, 3)) {
        problems.push(`"${name}" (${file}:${call.line}, args ${excerpt(call.args ?? {}, 80)}): ${problem}`);
      }
      if (found.length > 0) break;
    }
  }
  failOn(
    problems,
    `${id} does not answer every observed tool as the real server did (${observations.source})`,
    "make the tool's answer read like the real server's (its declared answer format, prefix, text, schema or handler), or observe the real server again if it changed",
  );
  if (unobserved.length > 0) {
    const one = unobserved.length === 1;
    return new NotChecked(
      `${id}'s ${one ? "tool" : "tools"} ${unobserved.join(", ")} ${one ? "has" : "have"} no observation in ${observations.source}, so ${one ? "it was" : "they were"} not checked (the others answered as observed)`,
    );
  }
  return undefined;
}
