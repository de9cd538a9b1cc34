import { type Static, Type } from "typebox";
import { describe } from "../describe.js";
import { Case } from "./case.js";

const SelectionFixture = Type.Object(
  {
    id: Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$", ...describe("The fixture's id, unique in the file.") }),
    query: Type.String({ minLength: 1, ...describe("A realistic request a user would make.") }),
    expectedTools: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, ...describe("The tools a good agent picks for it (`server/tool`, or bare).") }),
    area: Type.Optional(Type.String(describe("The group it scores under (the server's id by default)."))),
  },
  { additionalProperties: false, ...describe("A tool-selection fixture: a query and the tools that answer it.") },
);

/** The whole of `evals.yaml`. */
export const EvalsSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String(describe("The JSON Schema this file follows (editors read it)."))),
    version: Type.Literal(1, describe("The evals format's version.", { default: 1 })),
    description: Type.Optional(Type.String(describe("What these evals measure."))),
    fakes: Type.String(describe("The fakes manifest the cases run against, relative to this file.", { examples: ["fakes.yaml"] })),
    cases: Type.Optional(Type.Array(Case, describe("The cases: each a task and what its run must show."))),
    selection: Type.Optional(Type.Array(SelectionFixture, describe("Tool-selection fixtures: which tools a query should lead to."))),
  },
  { additionalProperties: false, ...describe("eval-simulate's evals: cases judged on recorded runs against the fakes of a manifest.") },
);

export type EvalsDocument = Static<typeof EvalsSchema>;
export type EvalCase = Static<typeof Case>;
