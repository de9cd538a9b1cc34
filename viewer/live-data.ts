/**
 * What the live page reads from the inspector's JSON, and the small readings of it the panels
 * share: a fetch that tells a deleted world (404) from a failure, and a call's answer cell.
 */
import type { EntityDiff, TimelineCall } from "./types.js";
import { answerText } from "./transcript.js";

export type LiveCall = TimelineCall;
export interface WorldInfo {
  id: string;
  scenario: string;
  clock: string;
  fakes: Array<{ id: string; kind: string }>;
}
export interface WorldData extends WorldInfo {
  calls: LiveCall[];
  fakes: Array<{ id: string; kind: string; entities: EntityDiff[] }>;
  stubs: Array<{ id: string; fake: string; target: string; uses: number }>;
}
export interface ResultsPanel {
  verdict: string;
  trials: { passed: number; total: number };
  cases: Array<{
    case: string;
    model: string;
    verdict: string;
    passed: number;
    judged: number;
    passRate: number | null;
    threshold: number;
    passHatK: number;
    k: number;
    notRun: number;
    failures: string[];
  }>;
}

/** A world the inspector no longer has (a deleted session). */
export class Gone extends Error {}

/** The calls the timeline keeps, the newest. */
export const MAX_CALLS = 1000;

export async function get<T>(path: string): Promise<T> {
  const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
  if (response.status === 404) throw new Gone(path);
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return (await response.json()) as T;
}

export const failedStatus = (status: string | number) => status !== "ok" && !(typeof status === "number" && status < 400);

/** The answer cell: the error once, then the answer only when it says more than the error. */
export function answerOf(call: LiveCall): string {
  const answer = answerText(safeJson(call.output));
  if (!call.error) return answer;
  return answer === "" || answer.includes(call.error) ? answer || call.error : `${call.error}\n${answer}`;
}
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
