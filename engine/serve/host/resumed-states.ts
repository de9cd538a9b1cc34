import { createSchemaCompiler, jsonValueProblem, MAX_STATE_DEPTH } from "../../author/contract/index.js";
import type { States } from "../runtime/index.js";
import { type Fakes, fakeKind } from "../../author/fakes/index.js";

/**
 * Why a run cannot resume from these states: each entity a fake declares must hold plain JSON
 * (no `1e309` read as Infinity, no nesting past MAX_STATE_DEPTH) that fits its schema. A state
 * file edited by hand, or written for another manifest, is refused at start rather than failing
 * the first call that reads it. Entities are not required to be there, nor refused when
 * undeclared (a world module may shape a fake's state so), but whatever is there must be plain
 * JSON; an emulate built-in's state is its seed, checked the same way.
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
    const schemas = new Map((fakeKind(fake).entities(fake) ?? []).map((entity) => [entity.name, entity.schema]));
    for (const [entity, value] of Object.entries(state)) {
      if (value === undefined || unfit(entity, value)) continue;
      const declared = schemas.get(entity);
      if (declared === undefined) continue;
      const schema = compiler.compile(declared);
      if (!schema.validate(value)) problems.push(`${where} entity "${entity}" is outside its schema: ${schema.errorsText()}`);
    }
  }
  return problems;
}
