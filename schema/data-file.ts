import { Type } from "typebox";
import { describe } from "./describe.js";

/** A scenario value (or an entity's default) kept in a data file beside the manifest. */
export const DataFile = Type.Object(
  {
    $file: Type.String({
      pattern: "\\.[Jj][Ss][Oo][Nn][Ll]?$",
      ...describe(
        "A `.json` file (its value) or a `.jsonl` file (an array of its lines' values), relative to the manifest and inside its folder; at most 64 MiB.",
        { examples: ["data/records.json"] },
      ),
    }),
  },
  {
    additionalProperties: false,
    ...describe(
      "The value is read from a data file when the manifest loads, and counts as if written here: merged, special values resolved, checked against the entity's schema. Large worlds belong in JSON, which reads about a hundred times faster than YAML.",
      { examples: [{ $file: "data/records.json" }] },
    ),
  },
);

/** A scenario's value for an entity, or an entity's default: any value, or `{ $file }`. */
export const EntityValue = (text: string, extra: { examples?: unknown[] } = {}) => Type.Union([DataFile, Type.Unknown()], describe(text, extra));
