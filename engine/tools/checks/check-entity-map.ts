/**
 * The entity-map checks. (b) Every allowed tool is mapped to its entities: the fake's tools are
 * the allow-list; each tool's kind is stateful or static; it reads and writes only entities the
 * fake declares; and a tool the capture calls read-only (`readOnlyHint: true`) writes nothing.
 * (c) A static tool answers the same whatever happens in a run, so it writes nothing and reads
 * no entity that a tool writes or that a world fills. A world fills an entity when some
 * scenario's value for it differs from the entity's default (or, with no default, from another
 * scenario's value).
 */
import { failOn, jsonOf } from "./check-failure.js";
import { mapLocation, type RecipeContext } from "./recipe-context.js";

const KINDS = ["stateful", "static"];

/**
 * Fails, naming each tool and what is wrong with its map, when the entity map does not hold.
 *
 * @example checkEntityMap(context, "crm");
 */
export function checkEntityMap(context: RecipeContext, id: string): void {
  const manifest = context.servers[id];
  const allowed = context.allowed(id);
  const mapped = manifest.tools.map((tool) => tool.name);
  const entities = manifest.entities.map((entity) => entity.name);
  const problems: string[] = [];
  for (const name of allowed.filter((n) => !mapped.includes(n)))
    problems.push(`"${name}" is allowed by ${context.allowListSource(id)} but has no entry in the entity map`);
  for (const name of mapped.filter((n) => !allowed.includes(n)))
    problems.push(`"${name}" is in the entity map but not allowed by ${context.allowListSource(id)}`);
  for (const tool of manifest.tools) {
    if (!KINDS.includes(tool.kind)) problems.push(`"${tool.name}" has kind ${JSON.stringify(tool.kind)}; a tool is stateful or static`);
    for (const [verb, names] of [
      ["reads", tool.reads],
      ["writes", tool.writes],
    ] as const) {
      for (const entity of names.filter((n) => !entities.includes(n))) {
        problems.push(`"${tool.name}" ${verb} "${entity}", which is not one of ${id}'s entities (${entities.join(", ") || "none"})`);
      }
    }
    if (tool.writes.length > 0 && tool.captured.annotations?.readOnlyHint === true) {
      problems.push(`"${tool.name}" writes ${tool.writes.join(", ")}, but its capture says readOnlyHint: true`);
    }
  }
  failOn(
    problems,
    `${id}'s entity map does not map every allowed tool to its entities`,
    `edit ${mapLocation(context, id)}: one entry per allowed tool, kind stateful or static, reads and writes naming declared entities, and no writes on a read-only tool (what verify's write checks read)`,
  );
}

/** The entities of fake `id` some scenario's world fills, each with a scenario that does. */
async function filledEntities(context: RecipeContext, id: string): Promise<Map<string, string>> {
  const { entities } = context.servers[id];
  const values = new Map<string, Array<{ scenario: string; value: string }>>();
  for (const scenario of context.scenarios) {
    const state = (await context.build(scenario))[id] ?? {};
    for (const entity of entities) {
      if (!Object.hasOwn(state, entity.name)) continue;
      values.set(entity.name, [...(values.get(entity.name) ?? []), { scenario, value: jsonOf(state[entity.name]) }]);
    }
  }
  const filled = new Map<string, string>();
  for (const entity of entities) {
    const seen = values.get(entity.name) ?? [];
    const baseline = entity.default !== undefined ? jsonOf(entity.default) : seen[0]?.value;
    const filler = seen.find((s) => s.value !== baseline);
    if (filler) filled.set(entity.name, filler.scenario);
  }
  return filled;
}

/**
 * Fails, naming each static tool and the entity that makes it not static.
 *
 * @example await checkStaticTools(context, "mail");
 */
export async function checkStaticTools(context: RecipeContext, id: string): Promise<void> {
  const { tools } = context.servers[id];
  const statics = tools.filter((tool) => tool.kind === "static");
  if (statics.length === 0) return;
  const filled = await filledEntities(context, id);
  const problems: string[] = [];
  for (const tool of statics) {
    if (tool.writes.length > 0) problems.push(`the static tool "${tool.name}" writes ${tool.writes.join(", ")}`);
    for (const entity of tool.reads) {
      const writer = tools.find((t) => t.writes.includes(entity));
      if (writer) problems.push(`the static tool "${tool.name}" reads "${entity}", which "${writer.name}" writes`);
      else if (filled.has(entity)) problems.push(`the static tool "${tool.name}" reads "${entity}", which the world of scenario "${filled.get(entity)}" fills`);
    }
  }
  failOn(
    problems,
    `${id} has a static tool over changing state`,
    `in ${mapLocation(context, id)}, make such a tool stateful (drop kind: static), or have it read only entities no tool writes and every world leaves at their default`,
  );
}
