/**
 * The scripted user: a case's `turns` played back, each turn's `userCalls` made on the session
 * as the script host makes an agent's, then its `user` message; past the last turn it ends the
 * conversation. Free and offline, so every conversation case has a `--dry` form.
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import { type AgentTrial, NO_USAGE, scriptHost, type TranscriptMessage, type UserReply, type UserSimulator } from "../hosts/index.js";

/**
 * A user playing `c.turns` in `trial`'s session: the n-th reply is turn n's (the first turn's
 * message is the case's `prompt` when it has one, and the runner sends that without asking).
 *
 * @example const user = scriptedUser(trial); await user.reply([]); // { content: turns[0].user, stop: false, ... }
 */
export function scriptedUser(trial: Omit<AgentTrial, "case"> & { case: EvalCase }): UserSimulator {
  const turns = trial.case.turns ?? [];
  const player = scriptHost();
  return {
    label: "script",
    async reply(messages: readonly TranscriptMessage[], signal?: AbortSignal): Promise<UserReply> {
      const free = (content?: string): UserReply => ({
        ...(content === undefined ? {} : { content }),
        stop: content === undefined,
        requests: 0,
        usage: { ...NO_USAGE },
        costUsd: 0,
      });
      const index = messages.filter((m) => m.role === "user" && m.content !== undefined).length;
      const turn = turns[index];
      if (!turn) return free();
      if (turn.userCalls?.length) {
        const played = await player.run({ ...trial, case: { ...trial.case, script: { calls: turn.userCalls } }, signal: signal ?? trial.signal });
        if (played.outcome) throw new Error(`[eval-simulate] turn ${index + 1}'s userCalls: ${played.outcome.reason}`);
      }
      const content = turn.user ?? (index === 0 ? trial.case.prompt : undefined);
      if (content === undefined) throw new Error(`[eval-simulate] case ${trial.case.id}: turn ${index + 1} has no user message (give it user: "...")`);
      return free(content);
    },
  };
}
