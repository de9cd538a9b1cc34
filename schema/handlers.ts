import { Type } from "typebox";
import { describe } from "./describe.js";
import { Expression } from "./json-schema.js";

const Guard = Type.Object(
  {
    if: Expression("The condition: when it holds, the call ends as a tool error and changes nothing.", ['$args.title = ""']),
    message: Expression("The tool error's text.", ['"A note needs a title"']),
  },
  { additionalProperties: false, ...describe("A guard: `if` holds → the call fails with `message`.") },
);

/** The block form of a JSONata handler: let → fail → set → return (→ isError). */
export const JsonataBlock = Type.Object(
  {
    let: Type.Optional(
      Type.Record(Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }), Expression("A binding."), {
        additionalProperties: false,
        ...describe("Bindings evaluated in order; each is visible to the ones after it, and to `fail`, `set` and `return`, as `$<name>`.", {
          examples: [{ id: '"note-" & $string($count($state.notes) + 1)' }],
        }),
      }),
    ),
    fail: Type.Optional(Type.Array(Guard, describe("Guards tried in order; the first whose `if` holds ends the call as a tool error."))),
    set: Type.Optional(
      Type.Record(Type.String(), Expression("The entity's new value."), {
        ...describe("Each entity's new value, computed from the state before the call; all are committed together.", {
          examples: [{ notes: '$append($state.notes, [{ "id": $id }])' }],
        }),
      }),
    ),
    return: Type.Optional(Expression("The answer, encoded in the tool's format. `$next` holds the state after `set`.", ['{ "id": $id }'])),
    isError: Type.Optional(
      Expression("When it holds, the answer is sent as a tool error after `set` is committed (a fake can record a rejected attempt).", [
        "$not($args.confirmed)",
      ]),
    ),
  },
  { additionalProperties: false, ...describe("A JSONata handler as a block: `let`, `fail`, `set`, `return`, `isError`.") },
);

/** A JSONata handler: an expression (its value is the answer) or a block. */
export const JsonataHandler = Type.Union([Expression("The answer."), JsonataBlock], {
  ...describe(
    "The tool's JSONata handler: an expression whose value is the answer, or a block (`let`, `fail`, `set`, `return`, `isError`). Bindings: `$args`, `$state`, `$next`, `$world`, `$now`, `$scenario`; functions `$labelId(label)`, `$notImplemented(what)`. A tool without `jsonata` is handled by the entry of the same name in the fake's `handlers` module.",
    { examples: ['{ "notes": $state.notes }'] },
  ),
});
