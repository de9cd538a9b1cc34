/**
 * The errors the world stage throws. Each carries a stable `code` so the CLI and the validator
 * can map it, and value errors carry the JSON path of the bad value so the validator can point
 * at its YAML line.
 */

/** A step in a JSON path: an object key or an array index. */
export type JsonPath = Array<string | number>;

/**
 * An error building a world: a bad clock, a bad scenario value, a broken `extends` chain, state
 * for an undeclared fake or entity, or a world module that does not keep its promises.
 *
 * @example if (error instanceof WorldError && error.code === "E_SCENARIO_CYCLE") process.exitCode = 2;
 */
export class WorldError extends Error {
  override name = "WorldError";
  readonly code: string;
  /** Where the problem is: in a scenario's `state` (from the fake id down), or in the world. */
  readonly path?: JsonPath;
  /** The scenario whose state holds the problem, when one does. */
  readonly scenario?: string;

  constructor(code: string, message: string, options: { path?: JsonPath; scenario?: string; cause?: unknown } = {}) {
    super(message.startsWith("[eval-simulate]") ? message : `[eval-simulate] ${message}`, { cause: options.cause });
    this.code = code;
    if (options.path) this.path = options.path;
    if (options.scenario !== undefined) this.scenario = options.scenario;
  }
}

/**
 * A scenario that does not exist was asked for; the message names the known ones.
 *
 * @example
 * try { await source.build("nope", clock); }
 * catch (error) { if (error instanceof UnknownScenarioError) console.error(error.known); }
 */
export class UnknownScenarioError extends WorldError {
  override name = "UnknownScenarioError";
  override readonly code = "E_UNKNOWN_SCENARIO";
  readonly requested: string;
  readonly known: string[];

  constructor(requested: string, known: string[]) {
    super("E_UNKNOWN_SCENARIO", `unknown scenario ${JSON.stringify(requested)}; known: ${known.length ? known.join(", ") : "(none)"}`);
    this.requested = requested;
    this.known = [...known];
  }
}

/**
 * A JSON path as people read it: `notes.notes[0].createdAt`; keys that are not plain names are
 * quoted (`["due-date"]`).
 *
 * @example formatPath(["notes", "notes", 0, "createdAt"]) // "notes.notes[0].createdAt"
 */
export function formatPath(path: JsonPath): string {
  let out = "";
  for (const step of path) {
    if (typeof step === "number") out += `[${step}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(step)) out += out ? `.${step}` : step;
    else out += `[${JSON.stringify(step)}]`;
  }
  return out || "(root)";
}
