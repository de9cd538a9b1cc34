import { type Static, Type } from "typebox";
import { describe } from "../describe.js";
import { Case } from "./case.js";
import { JudgeSettings, type Rubric } from "./grading.js";

const SelectionFixture = Type.Object(
  {
    id: Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$", ...describe("The fixture's id, unique in the file.") }),
    query: Type.String({ minLength: 1, ...describe("A realistic request a user would make.") }),
    expectedTools: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, ...describe("The tools a good agent picks for it (`server/tool`, or bare).") }),
    area: Type.Optional(
      Type.String(describe("The group it scores under: by default the area of its first expected tool (the manifest's `areas`, else the tool's server id).")),
    ),
  },
  { additionalProperties: false, ...describe("A tool-selection fixture: a query and the tools that answer it.") },
);

const Threshold = (what: string, fallback: number) => Type.Number({ minimum: 0, maximum: 1, ...describe(what, { default: fallback }) });

const SelectionOptions = Type.Object(
  {
    minFixtures: Type.Optional(Type.Integer({ minimum: 0, ...describe("At least this many fixtures (`validate` fails below).", { examples: [30] }) })),
    maxFixtures: Type.Optional(Type.Integer({ minimum: 1, ...describe("At most this many fixtures: a run's cost grows with each.", { examples: [60] }) })),
    minAreas: Type.Optional(Type.Integer({ minimum: 1, ...describe("The fixtures must cover at least this many areas.", { examples: [4] }) })),
    topK: Type.Optional(Type.Integer({ minimum: 1, ...describe("top-k counts a fixture when an expected tool is among the first k calls.", { default: 3 }) })),
    gate: Type.Optional(
      Type.Object(
        {
          remediate: Type.Optional(Threshold("Below this top-1 accuracy: remediate the catalog.", 0.85)),
          watch: Type.Optional(Threshold("Below this (and at or above `remediate`): keep watching; at or above it: fine.", 0.9)),
        },
        { additionalProperties: false, ...describe("The gate's thresholds on top-1 accuracy.") },
      ),
    ),
    system: Type.Optional(Type.String(describe("The system prompt of every selection request (a tool router's instructions by default)."))),
  },
  { additionalProperties: false, ...describe("How the `selection` fixtures are checked (`validate`, `checkSelectionFixtures`) and scored (`select`).") },
);

/** The whole of `evals.yaml`. */
export const EvalsSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String(describe("The JSON Schema this file follows (editors read it)."))),
    version: Type.Literal(1, describe("The evals format's version.", { default: 1 })),
    description: Type.Optional(Type.String(describe("What these evals measure."))),
    fakes: Type.String(describe("The fakes manifest the cases run against, relative to this file.", { examples: ["fakes.yaml"] })),
    ...JudgeSettings,
    cases: Type.Optional(Type.Array(Case, describe("The cases: each a task and what its run must show."))),
    selection: Type.Optional(Type.Array(SelectionFixture, describe("Tool-selection fixtures: which tools a query should lead to."))),
    selectionOptions: Type.Optional(SelectionOptions),
  },
  { additionalProperties: false, ...describe("eval-simulate's evals: cases judged on recorded runs against the fakes of a manifest.") },
);

export type EvalsDocument = Static<typeof EvalsSchema>;
export type EvalCase = Static<typeof Case>;
export type RubricDocument = Static<typeof Rubric>;
export type SelectionFixtureDocument = Static<typeof SelectionFixture>;
export type SelectionOptionsDocument = Static<typeof SelectionOptions>;
