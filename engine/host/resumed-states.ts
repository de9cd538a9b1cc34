import { createSchemaCompiler, jsonValueProblem, MAX_STATE_DEPTH } from "../contract/index.js";
import type { States } from "../runtime/state-store.js";
import type { Fakes } from "./fakes.js";

/**
 * Why a run cannot resume from these states: for each fake, each declared entity must be there,
 * hold plain JSON (no `1e309` read as Infinity, no nesting past MAX_STATE_DEPTH) and fit its
 * schema, and nothing undeclared may be there. A state file edited by hand, or written for
 * another manifest, is refused at start rather than failing the first call that reads it.
 * An emulate built-in's state is its seed, which has no entities: only its values are checked.
 *
 * @example resumedStatesProblems(fakes, resume.states); // ['fake "notes" entity "counter" is outside its schema: data must be integer']
 */
export function resumedStatesProblems(fakes: Fakes, states: States): string[] {
  const problems: string[] = [];
  const compiler = createSchemaCompiler();
  for (const [id, fake] of Object.entries(fakes)) {
    const state = states[id];
    if (typeof state !== "object" || state === null || Array.isArray(state)) continue;
    const where = `fake "${id}"`;
    const unfit = (entity: string, value: unknown) => {
      const problem = jsonValueProblem(value, { maxDepth: MAX_STATE_DEPTH });
      if (problem) problems.push(`${where} entity "${entity}" is not plain JSON: ${entity}${problem.path} ${problem.message}`);
      return problem !== undefined;
    };
    const entities = fake.manifest.entities;
    if (fake.kind === "api" && fake.manifest.emulate !== undefined) {
      for (const [entity, value] of Object.entries(state)) unfit(entity, value);
      continue;
    }
    const declared = new Set(entities.map((entity) => entity.name));
    for (const name of Object.keys(state)) {
      if (!declared.has(name)) problems.push(`${where} holds "${name}", which is not one of its entities (${[...declared].join(", ") || "none"})`);
    }
    for (const entity of entities) {
      if (!Object.hasOwn(state, entity.name) || state[entity.name] === undefined) {
        problems.push(`${where} lacks entity "${entity.name}"`);
        continue;
      }
      const value = state[entity.name];
      if (unfit(entity.name, value)) continue;
      const schema = compiler.compile(entity.schema);
      if (!schema.validate(value)) problems.push(`${where} entity "${entity.name}" is outside its schema: ${schema.errorsText()}`);
    }
  }
  return problems;
}
