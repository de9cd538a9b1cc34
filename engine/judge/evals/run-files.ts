/**
 * The files of a run folder, read as the judge may trust them: each a regular file under its cap
 * (never a FIFO, a device or a link to a pseudo-file), JSON said wrong at its line and column
 * without quoting it, and states checked to be objects of fakes and entities before any judging
 * walks them. Every error names the file, and the line where there is one.
 */
import { ID_PATTERN, NAME_PATTERN } from "../../../schema/describe.js";
import { jsonErrorOffset } from "../../author/source/index.js";
import { MAX_FILE_BYTES, readRegularFile } from "../../core/files/index.js";
import { type StatesByFake, withStateLog } from "../../core/record/index.js";

/**
 * The longest final message a run may hold: 1 MiB, what the command host keeps of an agent's
 * output. Past it an answer.txt is refused, and a trial's answer is cut.
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;

function fail(message: string): never {
  throw new Error(`[eval-simulate] ${message}`);
}

/** The 1-based line and column of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** The line a key is written on, looked for after `from` (1 when it cannot be found: an escaped key). */
function keyLine(text: string, key: string, from = 0): { line: number; at: number } {
  const quoted = JSON.stringify(key);
  for (let at = text.indexOf(quoted, from); at !== -1; at = text.indexOf(quoted, at + 1)) {
    if (/^\s*:/.test(text.slice(at + quoted.length, at + quoted.length + 64))) return { line: lineColumn(text, at).line, at };
  }
  return { line: 1, at: from };
}

/**
 * A run folder's text file: its text, or an error naming it. A missing file is `undefined`
 * unless `required` says what the run lacks.
 *
 * @example readRunText("run/answer.txt", MAX_ANSWER_BYTES)
 */
export function readRunText(file: string, maxBytes: number, required?: string): string | undefined {
  const read = readRegularFile(file, maxBytes);
  if (read.ok) return read.text;
  if (read.code === "ENOENT")
    return required === undefined ? undefined : fail(`the run has no ${required}: ${file} does not exist (serve --run-dir writes it)`);
  return fail(`${file} ${read.reason}`);
}

/**
 * A run folder's JSON file, parsed; an error says where it stops being JSON, never what it holds.
 *
 * @example readRunJson("run/transcript.json")
 */
export function readRunJson(file: string, required?: string): { value: unknown; text: string } | undefined {
  const text = readRunText(file, MAX_FILE_BYTES, required);
  if (text === undefined) return undefined;
  try {
    return { value: JSON.parse(text), text };
  } catch {
    const offset = jsonErrorOffset(text) ?? text.length;
    const { line, column } = lineColumn(text, offset);
    return fail(`${file}:${line}:${column}: not JSON`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const shape = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "a list" : typeof value);

/**
 * A state file of a run folder (`initial-state.json`, `state.json`): an object of fakes by id,
 * each an object of entities by name, as serve writes it, with the commits of its log
 * (`state.json.log`, left by a run that was killed) applied. Anything else is an error at its line.
 *
 * @example const final = readRunStates("run/state.json", "final state");
 */
export function readRunStates(file: string, what: string): StatesByFake {
  const read = readRunJson(file, what)!;
  const { text } = read;
  if (!isObject(read.value)) return fail(`${file}:1: the ${what} is not an object of fakes by id (it is ${shape(read.value)})`);
  const value: Record<string, unknown> = withStateLog(file, text, read.value as StatesByFake);
  const idPattern = new RegExp(ID_PATTERN);
  const namePattern = new RegExp(NAME_PATTERN);
  // Lines are looked for only once something is wrong: a large state is walked, never searched.
  for (const [id, entities] of Object.entries(value)) {
    if (!idPattern.test(id))
      fail(`${file}:${keyLine(text, id).line}: ${JSON.stringify(id)} is not a fake's id (a state file holds fakes by id: ${ID_PATTERN})`);
    if (!isObject(entities)) fail(`${file}:${keyLine(text, id).line}: the fake ${id} holds ${shape(entities)}, not an object of entities by name`);
    for (const name of Object.keys(entities)) {
      if (name !== "__proto__" && namePattern.test(name)) continue;
      fail(
        `${file}:${keyLine(text, name, keyLine(text, id).at).line}: ${JSON.stringify(`${id}.${name}`)} is not an entity's name (${NAME_PATTERN}, never __proto__)`,
      );
    }
  }
  return value as StatesByFake;
}
