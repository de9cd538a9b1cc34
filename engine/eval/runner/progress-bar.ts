/**
 * The progress line `eval` draws on a terminal while trials run: trials done of all, passes and
 * spend, each limited provider's requests in flight and cap, redrawn in place (never written when
 * the stream is not a terminal, so logs stay clean).
 */
import { type LimitStatus, limitsText } from "../models/index.js";

export interface ProgressState {
  done: number;
  total: number;
  passed: number;
  spentUsd: number;
  limits?: readonly LimitStatus[];
}

/** One line of progress, `width` characters of bar. */
export function progressLine(state: ProgressState, width = 24): string {
  const share = state.total === 0 ? 1 : state.done / state.total;
  const filled = Math.round(share * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${state.done}/${state.total} trials, ${state.passed} passed, $${state.spentUsd.toFixed(4)} spent${state.limits?.length ? `; ${limitsText(state.limits)}` : ""}`;
}

/**
 * A progress line on a stream that is a terminal; a no-op elsewhere.
 *
 * @example const bar = progressBar(process.stderr); bar.update({ done: 1, total: 8, passed: 1, spentUsd: 0 }); bar.clear();
 */
export function progressBar(stream: NodeJS.WriteStream): { update(state: ProgressState): void; clear(): void } {
  if (!stream.isTTY) return { update: () => undefined, clear: () => undefined };
  let drawn = false;
  return {
    update(state) {
      stream.write(
        `\r\u001b[2K${progressLine(state, Math.max(10, Math.min(40, (stream.columns ?? 80) - 50 - (state.limits?.length ? limitsText(state.limits).length + 2 : 0))))}`,
      );
      drawn = true;
    },
    clear() {
      if (drawn) stream.write("\r\u001b[2K");
      drawn = false;
    },
  };
}
