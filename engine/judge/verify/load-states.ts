import { join } from "node:path";
import { readRegularFile } from "../../core/files/index.js";
import { type StatesByFake, withStateLog } from "../../core/record/index.js";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A state file (`--state-file`, a run folder's `state.json` or `initial-state.json`, a session's
 * `<sid>.state.json`): every fake's state by id, with the commits of its log (`<file>.log`, which
 * a run killed before it stopped leaves beside it) applied, so it is the world of every
 * acknowledged call. Read as a regular file under the size cap.
 *
 * @example const final = loadState("/shared/state.json");
 */
export function loadState(file: string): StatesByFake {
  const read = readRegularFile(file);
  if (!read.ok) throw new Error(`[eval-simulate] the state file ${file} ${read.reason}`);
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch (error) {
    throw new Error(`[eval-simulate] the state file ${file} is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new Error(`[eval-simulate] ${file} is not a state file: it holds no object keyed by fake id`);
  return withStateLog(file, read.text, value as StatesByFake);
}

/**
 * A run folder's states, `{ initial, final }` from its `initial-state.json` and `state.json`
 * (log applied), as `changedEntities` takes them.
 *
 * @example changedEntities(loadStates("/shared"), loadManifests("/shared/manifests"))
 */
export function loadStates(runDir: string): { initial: StatesByFake; final: StatesByFake } {
  return { initial: loadState(join(runDir, "initial-state.json")), final: loadState(join(runDir, "state.json")) };
}
