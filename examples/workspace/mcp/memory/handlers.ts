/**
 * The memory fake's handlers: a knowledge graph of entities (unique names, a type, observations)
 * and directed relations, as the real server keeps it. Answers are its structured content:
 * created items, `{ success, message }` for deletions, and the (sub)graph for reads.
 */
import { defineHandlers } from "eval-simulate";

// Generated from fakes.yaml by `eval-simulate types` (validate warns when it is stale).
import type { MemoryFake, MemoryState } from "../../fakes.js";

type State = MemoryState;
type Entity = State["entities"][number];
type Relation = State["relations"][number];

const sameRelation = (a: Relation, b: Relation) => a.from === b.from && a.to === b.to && a.relationType === b.relationType;

/** The entities named and the relations between them, as search_nodes and open_nodes answer. */
function subgraph(state: State, keep: (entity: Entity) => boolean) {
  const entities = state.entities.filter(keep);
  const names = new Set(entities.map((e) => e.name));
  return { entities, relations: state.relations.filter((r) => names.has(r.from) && names.has(r.to)) };
}

export default defineHandlers<MemoryFake>({
  create_entities: (args, { state }) => {
    const created = args.entities.filter((e, i) => !state.entities.some((x) => x.name === e.name) && args.entities.findIndex((x) => x.name === e.name) === i);
    state.entities.push(...created.map((e) => ({ name: e.name, entityType: e.entityType, observations: [...(e.observations ?? [])] })));
    return { entities: created };
  },

  create_relations: (args, { state }) => {
    const created = args.relations.filter(
      (r, i) => !state.relations.some((x) => sameRelation(x, r)) && args.relations.findIndex((x) => sameRelation(x, r)) === i,
    );
    state.relations.push(...created.map((r) => ({ from: r.from, to: r.to, relationType: r.relationType })));
    return { relations: created };
  },

  add_observations: (args, { state, fail }) => {
    const results = args.observations.map((o) => {
      const entity = state.entities.find((e) => e.name === o.entityName) ?? fail(`Entity with name ${o.entityName} not found`);
      const added = o.contents.filter((c, i) => !entity.observations.includes(c) && o.contents.indexOf(c) === i);
      entity.observations.push(...added);
      return { entityName: o.entityName, addedObservations: added };
    });
    return { results };
  },

  delete_entities: (args, { state }) => {
    const gone = new Set(args.entityNames);
    state.entities = state.entities.filter((e) => !gone.has(e.name));
    state.relations = state.relations.filter((r) => !gone.has(r.from) && !gone.has(r.to));
    return { success: true, message: "Entities deleted successfully" };
  },

  delete_observations: (args, { state }) => {
    for (const d of args.deletions) {
      const entity = state.entities.find((e) => e.name === d.entityName);
      if (entity) entity.observations = entity.observations.filter((o) => !d.observations.includes(o));
    }
    return { success: true, message: "Observations deleted successfully" };
  },

  delete_relations: (args, { state }) => {
    state.relations = state.relations.filter((r) => !args.relations.some((x) => sameRelation(x, r)));
    return { success: true, message: "Relations deleted successfully" };
  },

  read_graph: (_args, { state }) => ({ entities: state.entities, relations: state.relations }),

  search_nodes: (args, { state }) => {
    const q = args.query.toLowerCase();
    return subgraph(
      state,
      (e) => e.name.toLowerCase().includes(q) || e.entityType.toLowerCase().includes(q) || e.observations.some((o) => o.toLowerCase().includes(q)),
    );
  },

  open_nodes: (args, { state }) => subgraph(state, (e) => args.names.includes(e.name)),
});
