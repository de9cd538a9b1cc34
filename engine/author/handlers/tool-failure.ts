/**
 * A handler's refusal: `fail(message)` (the context's, or `fail` imported from `eval-simulate`,
 * in `typescript-handlers.ts`) ends the call as a tool error (an API fake: its refusal) and changes nothing. Recognised by a
 * mark rather than by class, so a handler module that loads another copy of the package agrees.
 */

/** Thrown by a handler's `fail(message)`: the call ends as a tool error and changes nothing. */
export class ToolFailure extends Error {
  readonly toolFailure = true;
  constructor(message: string) {
    super(message);
    this.name = "ToolFailure";
  }
}

/** True for a ToolFailure from any copy of this package (a handler module may load another). */
export function isToolFailure(error: unknown): error is Error {
  return error instanceof Error && (error as { toolFailure?: unknown }).toolFailure === true;
}
