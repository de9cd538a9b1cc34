import type { ManifestDocument } from "../../../schema/manifest.js";
import { checkInvariants, compileInvariants, scenarioChain, type WorldSource, type WorldSpec } from "../world/index.js";
import type { LoadContext } from "./load-context.js";
import { numericKeysIn } from "./numeric-keys.js";
import type { PathSegment } from "../source/index.js";
import type { ApiManifest, InvariantManifest, ServerManifest } from "../model/index.js";

type Invariants = NonNullable<ManifestDocument["invariants"]>;

/** Where a scenario's value for an entity was written: the last scenario of its chain that sets it, else the default. */
function entityValuePath(spec: WorldSpec | undefined, scenario: string, fake: string, entity: string, fakeKind: "servers" | "apis"): PathSegment[] {
  if (spec) {
    const chain = Object.hasOwn(spec.scenarios, scenario) ? scenarioChain(spec, scenario) : [];
    for (const name of [...chain].reverse()) {
      if (spec.scenarios[name]?.state?.[fake]?.[entity] !== undefined) return ["scenarios", name, "state", fake, entity];
    }
  }
  return [fakeKind, fake, "entities", entity, "default"];
}

/** Compiles the invariants, placing syntax errors inside their `assert` strings. */
export function compileManifestInvariants(invariants: Invariants, context: LoadContext, functions: Record<string, string> = {}) {
  const { compiled, problems } = compileInvariants(invariants, functions);
  for (const problem of problems) {
    const at = ["invariants", problem.index, "assert"];
    context.report.error("E_JSONATA_SYNTAX", at, problem.message, {
      position: problem.offset === undefined ? undefined : context.report.source.positionInString(at, problem.offset),
    });
  }
  const manifests: InvariantManifest[] = invariants.map((inv, index) => ({
    name: inv.name,
    expression: inv.assert,
    source: context.report.location(["invariants", index]),
  }));
  return { compiled: problems.length === 0 ? compiled : undefined, manifests };
}

/**
 * Builds every scenario's world at `clock` and checks it: each entity's value against its
 * schema, then the invariants. A problem points at the scenario state that set the value.
 */
export async function checkWorlds(
  world: WorldSource,
  spec: WorldSpec | undefined,
  fakes: { servers: ServerManifest[]; apis: ApiManifest[] },
  invariants: ReturnType<typeof compileManifestInvariants>,
  clock: Date,
  context: LoadContext,
): Promise<void> {
  const { report, compiler } = context;
  const all = [
    ...fakes.servers.map((f) => ({ fake: f, kind: "servers" as const })),
    ...fakes.apis.filter((a) => !a.emulate).map((f) => ({ fake: f, kind: "apis" as const })),
  ];
  const warned = new Set<string>();
  for (const scenario of world.scenarios) {
    const scenarioPath = spec && Object.hasOwn(spec.scenarios, scenario) ? ["scenarios", scenario] : ["world"];
    let built: Record<string, Record<string, unknown>>;
    try {
      built = await world.build(scenario, clock);
    } catch (error) {
      report.error(
        "E_WORLD_VALUE",
        scenarioPath,
        `the world of scenario "${scenario}" cannot be built: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`,
        { key: true },
      );
      continue;
    }
    for (const { fake, kind } of all) {
      const state = built[fake.id];
      if (!state) {
        report.error("E_WORLD_VALUE", scenarioPath, `the world of scenario "${scenario}" holds no state for "${fake.id}"`, { key: true });
        continue;
      }
      for (const entity of fake.entities) {
        if (!Object.hasOwn(state, entity.name)) continue;
        warnNumericKeys(state[entity.name], entityValuePath(spec, scenario, fake.id, entity.name, kind), `${fake.id}.${entity.name}`, warned, context);
        const validate = compiler.compile(entity.schema);
        if (validate.validate(state[entity.name])) continue;
        const at = entityValuePath(spec, scenario, fake.id, entity.name, kind);
        for (const issue of validate.issues().slice(0, 5)) {
          const inner = issue.path
            .split("/")
            .slice(1)
            .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, "/").replace(/~0/g, "~")));
          report.error("E_WORLD_SCHEMA", [...at, ...inner], `in scenario "${scenario}", ${fake.id}.${entity.name}${issue.path} ${issue.message}`);
        }
      }
    }
    if (!invariants.compiled) continue;
    for (const failure of await checkInvariants(built, invariants.compiled, clock)) {
      report.error(
        "E_INVARIANT",
        ["invariants", failure.index, "assert"],
        `the invariant "${failure.name}" does not hold in scenario "${scenario}"${failure.error ? `: ${failure.error}` : ""}`,
      );
    }
  }
}

/** Warns once per place where an entity's value has integer-like keys, which JavaScript reorders. */
function warnNumericKeys(value: unknown, at: PathSegment[], entity: string, warned: Set<string>, context: LoadContext): void {
  const found = numericKeysIn(value);
  const where = JSON.stringify(at);
  if (!found || warned.has(where)) return;
  warned.add(where);
  const inner = found.path.length > 0 ? `.${found.path.join(".")}` : "";
  context.report.warn(
    "W_NUMERIC_KEYS",
    at,
    `${entity}${inner} has integer-like keys (${found.keys.map((k) => JSON.stringify(k)).join(", ")}…): JavaScript puts them first, in ascending numeric order, not in the order written, so answers listing these keys or records follow that order`,
  );
}
