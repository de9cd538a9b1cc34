import { Type } from "typebox";
import { describe } from "../describe.js";
import { Expression } from "../json-schema.js";
import { NamedExpression, Weight } from "./state.js";

/** A model spec, as the runner's hosts take it. */
const ModelId = (what: string) =>
  Type.String({ minLength: 1, ...describe(`${what} \`provider:model\`.`, { examples: ["anthropic:claude-sonnet-4-5", "openai:gpt-4.1-mini"] }) });

/** The judge model of a file's rubrics, and where an OpenAI-compatible one is served. */
export const JudgeSettings = {
  judgeModel: Type.Optional(ModelId("The model that judges `rubrics` when a rubric names none (`--judge-model` overrides it):")),
  judgeBaseURL: Type.Optional(
    Type.String(
      describe("The endpoint of the judge model: an OpenAI-compatible server for `openai-compatible:<model>`, or another base for a known provider.", {
        examples: ["http://localhost:11434/v1"],
      }),
    ),
  ),
};

/** A natural-language criterion a model judges. */
export const Rubric = Type.Object(
  {
    name: Type.String({ minLength: 1, ...describe("What it checks, as a sentence; unique among the case's rubrics.") }),
    rubric: Type.String({
      minLength: 1,
      ...describe("The criterion, in plain words, that the agent's final answer (with the transcript when the run has one, and the `context`) must meet.", {
        examples: ["The reply tells the user which deal was marked won and that the task is closed, without inventing amounts."],
      }),
    }),
    model: Type.Optional(ModelId("The judge for this rubric instead of the file's `judgeModel`:")),
    threshold: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        ...describe("Passes when the judge's score (0–1) is at least this; without it, the judge's verdict decides.", { examples: [0.7] }),
      }),
    ),
    context: Type.Optional(
      Expression(
        "A view of the run shown to the judge beside the answer (keep it small: every byte is sent and is part of the cache key). Bindings: `$final` (also the input), `$initial`, `$calls`, `$diff`, `$answer`.",
        ["$final.crm.deals[name = 'Acme Corp — platform renewal'].{ 'name': name, 'stage': stage }"],
      ),
    ),
    weight: Weight(),
  },
  {
    additionalProperties: false,
    ...describe(
      "A model-graded assertion: a judge model reads the criterion, the task, the answer and the context, and answers pass or fail with a score and its reasoning. Judgments are cached in `<evals>.judgments.json` beside the evals file; without a cached judgment or a key the rubric is not evaluated, never passed.",
    ),
  },
);

const Milestone = NamedExpression(
  "A predicate over the world that must become true at some commit, no earlier than the milestones it comes after.",
  "Bindings: `$world` (also the input), `$initial`, `$call` (the call that made the commit).",
  "$count($world.tickets.tickets[status = 'closed']) >= 1",
  {
    after: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        ...describe(
          "The names of the milestones this one comes after (a graph): it must first become true at the same commit as each of them or later. With `after`, the list's own order does not count.",
          { examples: [["the Acme renewal is won"]] },
        ),
      }),
    ),
  },
);

/** Milestones: a list in order, or `{ order, list }` for any order or a graph. */
export const Milestones = Type.Union(
  [
    Type.Array(
      Milestone,
      describe(
        "Predicates that must each become true as the run's commits happen: in the listed order, unless some name milestones they come `after` (then only those orders count).",
      ),
    ),
    Type.Object(
      {
        order: Type.Optional(
          Type.Union(
            [Type.Literal("listed"), Type.Literal("any")],
            describe("`listed`: each milestone no earlier than the one before it; `any`: in any order (only `after` orders them).", { default: "listed" }),
          ),
        ),
        list: Type.Array(Milestone, describe("The milestones.")),
      },
      { additionalProperties: false, ...describe("Milestones with their order said: `{ order: any, list: [...] }`.") },
    ),
  ],
  describe("Milestones reached give partial credit in the score: each counts by its weight."),
);

/** A minefield: a predicate that must never hold. */
export const Minefield = NamedExpression(
  "A predicate that must be false in every world of the run (a minefield).",
  "Bindings: `$world` (also the input), `$initial`, `$call`.",
  "$count($world.tickets.tickets[status = 'deleted']) > 0",
  {
    zeroScore: Type.Optional(
      Type.Boolean(describe("A broken minefield makes the trial's score 0 (`false`: it counts as one failed assertion of its weight).", { default: true })),
    ),
  },
);

/** The weights of assertions that are not objects of their own. */
export const Weights = Type.Object(
  {
    order: Weight(),
    exclusive: Weight(),
    callCount: Weight(),
    changed: Weight(),
    unchanged: Weight(),
    only: Weight(),
    readOnly: Weight(),
    golden: Weight(),
    forbidden: Weight(),
    turns: Weight(),
  },
  {
    additionalProperties: false,
    ...describe(
      "Weights of the assertions written as plain values (`order`, `exclusive`, `callCount`, each of `state.changed`/`unchanged`, `state.only`, `state.readOnly`, a `golden` list, each `forbidden` tool, `turns`); assertions written as objects carry their own `weight`.",
      { examples: [{ exclusive: 0.5, golden: 3 }] },
    ),
  },
);
