/**
 * The entities JSONata reads, held to the ones declared: `$state.taks` in a handler, or
 * `$world.crm.taks` in an invariant, reads nothing and the expression answers as if the entity
 * were empty, so a name that is no entity is an error with the nearest one; and a handler that
 * reads an entity its `reads`/`writes` do not list is warned about (`W_UNDECLARED_READ`): those
 * lists are the entity map the judge, the inspector and the checks read.
 */
import { variableSteps } from "../handlers/index.js";
import { type PathSegment, suggestion } from "../source/index.js";
import type { LoadContext } from "./load-context.js";

/** Every string under `value`, with its path (a handler block's parts, an expression itself). */
function strings(value: unknown, at: PathSegment[], found: Array<{ text: string; at: PathSegment[] }> = []) {
  if (typeof value === "string") found.push({ text: value, at });
  else if (Array.isArray(value)) value.forEach((item, i) => strings(item, [...at, i], found));
  else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) strings(item, [...at, key], found);
  return found;
}

/** A block's `let` names: one named `state` or `next` shadows the binding, and says nothing about entities. */
function letNames(jsonata: unknown): string[] {
  const block = jsonata as { let?: unknown } | null;
  return block && typeof block === "object" && block.let && typeof block.let === "object" ? Object.keys(block.let) : [];
}

/**
 * Checks the `$state.<entity>` and `$next.<entity>` reads of a tool's or operation's JSONata
 * handler against the fake's entities and the handler's declared `reads` and `writes`.
 */
export function checkStateReads(
  name: string,
  jsonata: unknown,
  entities: readonly string[],
  declared: readonly string[],
  path: PathSegment[],
  context: LoadContext,
): void {
  const variables = ["state", "next"].filter((variable) => !letNames(jsonata).includes(variable));
  if (variables.length === 0) return;
  for (const { text, at } of strings(jsonata, path)) {
    for (const read of variableSteps(text, variables, 1)) {
      const entity = read.names[0]!;
      // Found only for a problem to report: finding it may mean parsing the YAML (manifest-cache.ts).
      const position = () => context.report.source.positionInString(at, read.offsets[0]!);
      if (!entities.includes(entity)) {
        context.report.error(
          "E_UNKNOWN_ENTITY",
          at,
          `"${name}" reads $${read.variable}.${entity}, which is not an entity of this fake.${suggestion(entity, entities)}`,
          {
            position: position(),
            hint: `Entities of this fake: ${entities.join(", ") || "none"}.`,
          },
        );
      } else if (!declared.includes(entity) && declared.every((listed) => entities.includes(listed))) {
        // (A list naming an unknown entity has its own error: its reads are not known yet.)
        context.report.warn("W_UNDECLARED_READ", at, `"${name}" reads $${read.variable}.${entity}, which its reads and writes do not list`, {
          position: position(),
          hint: `Add ${entity} to its \`reads\`: the judge, the inspector and the checks know what a tool touches from those lists.`,
        });
      }
    }
  }
}

/**
 * Checks `$world.<fake>.<entity>` in the manifest's invariants against the fakes and their
 * entities. `fakes` holds the fakes that loaded; an id declared but not loaded (its own errors
 * are reported) is passed over.
 */
export function checkWorldReads(
  invariants: readonly unknown[],
  ids: readonly string[],
  fakes: ReadonlyMap<string, readonly string[]>,
  context: LoadContext,
): void {
  invariants.forEach((invariant, index) => {
    const assert = (invariant as { assert?: unknown } | null)?.assert;
    if (typeof assert !== "string") return;
    const at: PathSegment[] = ["invariants", index, "assert"];
    for (const read of variableSteps(assert, ["world"], 2)) {
      const [fake, entity] = read.names;
      if (!ids.includes(fake!)) {
        context.report.error("E_UNKNOWN_FAKE", at, `the invariant reads $world.${fake}, which is not a fake of this manifest.${suggestion(fake!, ids)}`, {
          position: context.report.source.positionInString(at, read.offsets[0]!),
          hint: `Fakes: ${ids.join(", ") || "none"}.`,
        });
        continue;
      }
      const known = fakes.get(fake!);
      if (entity === undefined || known === undefined || known.includes(entity)) continue;
      context.report.error(
        "E_UNKNOWN_ENTITY",
        at,
        `the invariant reads $world.${fake}.${entity}, which is not an entity of ${fake}.${suggestion(entity, known)}`,
        {
          position: context.report.source.positionInString(at, read.offsets[1]!),
          hint: `Entities of ${fake}: ${known.join(", ") || "none"}.`,
        },
      );
    }
  });
}
