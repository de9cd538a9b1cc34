import { type TProperties, Type } from "typebox";
import { describe } from "../describe.js";
import { Expression } from "../json-schema.js";

/** How much an assertion counts in its trial's score (the weighted share of assertions passed). */
export const Weight = () =>
  Type.Optional(
    Type.Number({
      minimum: 0,
      ...describe("How much this assertion counts in the trial's `score` (the weighted share of assertions passed); 0 reports it without scoring it.", {
        default: 1,
        examples: [2],
      }),
    }),
  );

/** `fake.entity`. */
export const ENTITY_REF_PATTERN = "^[a-z0-9][a-z0-9-]*\\.[A-Za-z_][A-Za-z0-9_]*$";

const EntityRefs = (what: string) =>
  Type.Array(Type.String({ pattern: ENTITY_REF_PATTERN }), describe(`${what} Each as \`<fake>.<entity>\`.`, { examples: [["tickets.tickets"]] }));

const Records = (what: string) =>
  Type.Array(
    Type.Record(Type.String(), Type.Unknown()),
    describe(
      `${what} Each entry matches one record partially (as call arguments do, \`$pattern\` included); every record of this kind must be matched by an entry and each entry by a record.`,
    ),
  );

const EntityDiff = Type.Object(
  {
    key: Type.Optional(Type.String(describe("The field that names a record.", { default: "id" }))),
    added: Type.Optional(Records("The records the run added.")),
    removed: Type.Optional(Records("The records the run removed (as they were).")),
    updated: Type.Optional(Records("The records the run changed (as they are now).")),
    weight: Weight(),
  },
  {
    additionalProperties: false,
    ...describe("The expected difference between an entity's initial and final records, by key; a list left out is not checked, an empty list means none."),
  },
);

/** A JSONata assertion with a name (and a weight, and whatever else its kind adds). */
export const NamedExpression = <Extra extends TProperties = {}>(what: string, bindings: string, example: string, extra: Extra = {} as Extra) =>
  Type.Object(
    {
      name: Type.String(describe("What it checks, as a sentence.")),
      jsonata: Expression(`${what} ${bindings}`, [example]),
      weight: Weight(),
      ...extra,
    },
    { additionalProperties: false, ...describe(what) },
  );

/** What the run must have done to the fakes' state. */
export const StateExpectation = Type.Object(
  {
    changed: Type.Optional(EntityRefs("Entities whose final value must differ from the initial one.")),
    unchanged: Type.Optional(
      EntityRefs("Entities whose final value must equal the initial one (a change undone within the run passes: forbid that with `never`)."),
    ),
    only: Type.Optional(Type.Boolean(describe("No entity outside `changed` may have changed (collateral damage)."))),
    readOnly: Type.Optional(Type.Boolean(describe("The final world must equal the initial one, every fake and entity."))),
    diff: Type.Optional(
      Type.Record(Type.String({ pattern: ENTITY_REF_PATTERN }), EntityDiff, {
        ...describe("Per entity (`<fake>.<entity>`, an array of records), the records added, removed and updated.", {
          examples: [{ "tickets.tickets": { updated: [{ id: "T-101", status: "closed" }], added: [], removed: [] } }],
        }),
      }),
    ),
    assert: Type.Optional(
      Type.Array(
        NamedExpression(
          "A JSONata expression that must be true.",
          "Bindings: `$initial`, `$final` (worlds by fake and entity), `$calls` (the record's calls), `$diff` (per fake and entity: `added`, `removed`, `updated` with `before`/`after`), `$history` (each commit: `call`, `fake`, `tool`, `entities`).",
          "$count($final.tickets.tickets[status = 'closed']) = 1",
        ),
        describe("JSONata assertions over the run."),
      ),
    ),
  },
  { additionalProperties: false, ...describe("Expectations on the fakes' state: initial against final, by entity.") },
);
