import type { FaultManifest, StubManifest } from "../../author/model/index.js";
import type { RuntimeScope } from "../runtime/index.js";
import { type States, StateStore } from "../runtime/index.js";
import { FaultSet } from "../stubs/index.js";
import { StubSet } from "../stubs/index.js";

/** A scenario's world as built at one clock: frozen values every session of it shares. */
export interface WorldTemplate {
  scenario: string;
  /** ISO 8601. */
  clock: string;
  /** Every fake's starting state, deep frozen. */
  initial: States;
  /** The scenario's stubs, compiled once; each session plays a copy with its own cursors. */
  stubs: StubSet;
  faults: readonly FaultManifest[];
}

/** What building a scenario's world gives: its states, stubs and faults. */
export interface BuiltWorld {
  scenario: string;
  states: States;
  stubs: readonly StubManifest[];
  faults: readonly FaultManifest[];
}

/** Templates kept at most: a harness sweeping many clocks must not grow the process without end. */
const KEPT = 32;

/**
 * Each scenario's world built once per clock and kept (the last 32 used): a session starts from
 * the template's frozen values, copying only the containers it commits into.
 *
 * @example const templates = new WorldTemplates(build); const t = await templates.get("quiet", clock);
 */
export class WorldTemplates {
  private readonly kept = new Map<string, Promise<WorldTemplate>>();

  constructor(private readonly build: (scenario: string | undefined, clock: Date) => Promise<BuiltWorld>) {}

  get(scenario: string | undefined, clock: Date): Promise<WorldTemplate> {
    const key = `${scenario ?? ""}\u0000${clock.toISOString()}`;
    let template = this.kept.get(key);
    if (template) {
      // Most recently used last, so the oldest is the first to go.
      this.kept.delete(key);
      this.kept.set(key, template);
      return template;
    }
    template = this.build(scenario, clock).then((built) => {
      // The store copies and freezes the world once; its `initial` is what sessions share.
      const store = new StateStore(built.states);
      return { scenario: built.scenario, clock: clock.toISOString(), initial: store.initial, stubs: new StubSet(built.stubs), faults: built.faults };
    });
    this.kept.set(key, template);
    // A world that failed to build is not kept: the next request tries again.
    template.catch(() => this.kept.delete(key));
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
    return template;
  }
}

/** Freezes the containers of states whose values are frozen already (a fork point). */
function frozenStates(states: States): States {
  return Object.freeze(Object.fromEntries(Object.entries(states).map(([id, state]) => [id, Object.freeze({ ...state })])));
}

/**
 * A session's own runtime scope: a state store over the template's frozen values (or, for a
 * fork, over another session's current ones), held to `maxBytes`, stub cursors and fault draws
 * of its own.
 *
 * @example const scope = sessionScope(template, 7); scope.store.states.crm.contacts;
 */
export function sessionScope(template: WorldTemplate, seed: number, from?: RuntimeScope, maxBytes?: number): RuntimeScope {
  const initial = from ? frozenStates(from.store.states) : template.initial;
  return {
    store: new StateStore(initial, initial, true, { maxBytes }),
    now: template.clock,
    scenario: template.scenario,
    stubs: from?.stubs ? from.stubs.copy(true) : template.stubs.copy(),
    faults: new FaultSet(template.faults, seed),
  };
}
