import { createRequire } from "node:module";

// CommonJS through require: an ESM import of it makes node scan it, and every file it requires,
// for named exports (cjs-module-lexer), a measurable share of each start (docs/performance.md).
const jsonata = createRequire(import.meta.url)("jsonata") as typeof import("jsonata");

type Node = { type?: string; value?: unknown; steps?: Node[]; stages?: unknown; predicate?: unknown; lhs?: Node; arguments?: Node[]; [key: string]: unknown };

/** Bindings whose value is not the world's: a predicate reading one may change between equal worlds. */
const VOLATILE = new Set(["call", "now", "millis", "random", "eval"]);

/**
 * The entities a predicate over `$world` reads (`<fake>.<entity>`, or `<fake>` for a whole
 * fake), when the expression shows them plainly: it reads the world only through paths
 * `$world.<fake>.<entity>…`, never the context (`$`, a bare name) nor `$call`, `$now()`,
 * `$random()` or `$eval`. Otherwise undefined: the predicate must be evaluated on every world.
 * A predicate's value cannot change at a commit that touches none of these, so the judge
 * evaluates it only where it can.
 *
 * @example worldDependencies("$world.crm.deals[stage = 'won']") // Set { "crm.deals" }
 */
export function worldDependencies(source: string): Set<string> | undefined {
  let ast: Node;
  try {
    ast = jsonata(source).ast() as Node;
  } catch {
    return undefined;
  }
  const deps = new Set<string>();
  let safe = true;
  // `relative`: inside a path after its first step, where names read the path's own values.
  const visit = (value: unknown, relative: boolean): void => {
    if (!safe || typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) return value.forEach((item) => visit(item, relative));
    const node = value as Node;
    if (node.type === "path" && node.steps && node.steps.length > 0) {
      const [first, ...rest] = node.steps;
      if (first.type === "variable" && first.value === "world") {
        const [fake, entity] = rest;
        if (fake?.type !== "name" || fake.stages || fake.predicate || typeof fake.value !== "string") return void (safe = false);
        deps.add(entity?.type === "name" && typeof entity.value === "string" ? `${fake.value}.${entity.value}` : fake.value);
      } else {
        visit(first, relative);
      }
      // The steps after the first read inside the values before them.
      for (const step of rest) visit({ ...step, type: step.type === "name" ? "relative-name" : step.type }, true);
      return;
    }
    if (node.type === "name" && !relative) return void (safe = false);
    if (node.type === "variable" && (node.value === "" || node.value === "world" || VOLATILE.has(String(node.value)))) return void (safe = false);
    if (node.type === "bind" && node.lhs?.value === "world") return void (safe = false);
    for (const key of Object.keys(node)) if (key !== "position") visit(node[key], relative);
  };
  visit(ast, false);
  return safe ? deps : undefined;
}

/** True when a commit to `fake` changing `entities` may change a predicate with these dependencies. */
export function touches(deps: Set<string> | undefined, fake: string, entities: readonly string[]): boolean {
  if (!deps) return true;
  if (deps.has(fake)) return true;
  return entities.some((entity) => deps.has(`${fake}.${entity}`));
}
