import { Type } from "typebox";
import { describe } from "../describe.js";
import { Weight } from "./state.js";

/** `{ min, max, exact }`: how many times something happened. */
export const Count = (what: string) =>
  Type.Object(
    {
      min: Type.Optional(Type.Integer({ minimum: 0, ...describe("At least this many.") })),
      max: Type.Optional(Type.Integer({ minimum: 0, ...describe("At most this many.") })),
      exact: Type.Optional(Type.Integer({ minimum: 0, ...describe("Exactly this many (instead of `min`/`max`).") })),
    },
    { additionalProperties: false, ...describe(what, { examples: [{ min: 1, max: 3 }, { exact: 2 }] }) },
  );

/** A tool as a case names it: `server/tool`, `api/operation`, bare when one fake serves it, or a harness's name. */
export const ToolName = (what: string) =>
  Type.String({
    minLength: 1,
    ...describe(
      `${what} \`<server>/<tool>\`, \`<api>/<operation>\`, the bare name when one fake serves it, or a harness's name (\`mcp__<server>__<tool>\`, …).`,
      {
        examples: ["tickets/close-ticket", "close-ticket", "github/issues/create"],
      },
    ),
  });

/** Expected arguments, matched partially; a string may be matched by `{ $pattern, $flags }`. */
export const Arguments = Type.Record(Type.String(), Type.Unknown(), {
  ...describe(
    'Expected arguments, matched partially: every key listed must be present with an equal value (objects are matched partially too, arrays element by element); extra arguments are allowed. A value `{ $pattern: "regex", $flags: "i" }` matches a string by regular expression. For an API operation the arguments are the request: `{ params, query, body }`.',
    { examples: [{ id: "T-101" }, { query: { $pattern: "quarterly.*planning", $flags: "i" } }] },
  ),
});

/** One expected tool call. */
export const CallMatcher = Type.Object(
  {
    tool: ToolName("The tool:"),
    required: Type.Optional(
      Type.Boolean(
        describe(
          "Whether the tool must have been called (with matching arguments); `false` lists a tool that is allowed (for `exclusive`) without being required.",
          { default: true },
        ),
      ),
    ),
    arguments: Type.Optional(Arguments),
    count: Type.Optional(Count("How many calls must match this entry (tool and arguments).")),
    by: Type.Optional(
      Type.Union(
        [Type.Literal("agent"), Type.Literal("user"), Type.Literal("any")],
        describe("Whose calls count (a conversation's user may call tools of their own: dual control).", { default: "agent" }),
      ),
    ),
    weight: Weight(),
  },
  {
    additionalProperties: false,
    ...describe("A tool call the agent must (or may) make.", { examples: [{ tool: "tickets/close-ticket", arguments: { id: "T-101" } }] }),
  },
);

/** A call a script or a golden path makes. */
export const ScriptCall = Type.Object(
  {
    tool: ToolName("The tool to call:"),
    arguments: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), describe("The call's arguments; for an API operation the request: `{ params, query, headers, body }`.")),
    ),
  },
  { additionalProperties: false, ...describe("One tool call.", { examples: [{ tool: "tickets/close-ticket", arguments: { id: "T-101" } }] }) },
);
