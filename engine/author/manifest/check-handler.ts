/** The checks a tool, an operation and a resource share: the entities they name and their one handler. */
import { suggestion } from "../source/index.js";
import type { HandlersModule } from "./handlers-module.js";
import { checkJsonata, type LoadContext } from "./load-context.js";
import type { PathSegment } from "../source/index.js";
import type { HandlerManifest } from "../model/index.js";

/** Reports entity names a tool or operation lists that the fake does not declare. */
export function checkEntityNames(names: string[] | undefined, known: string[], path: PathSegment[], context: LoadContext): string[] {
  (names ?? []).forEach((name, index) => {
    if (!known.includes(name)) {
      context.report.error("E_UNKNOWN_ENTITY", [...path, index], `unknown entity "${name}".${suggestion(name, known)}`, {
        hint: known.length ? `Entities of this fake: ${known.join(", ")}.` : "Declare it under this fake's `entities`.",
      });
    }
  });
  return names ?? [];
}

/** Exactly one handler per tool or operation: `jsonata`, or the module's entry of that name. */
export function checkHandler<F>(
  name: string,
  spec: { jsonata?: unknown },
  path: PathSegment[],
  module: HandlersModule | undefined,
  context: LoadContext,
): HandlerManifest<F> | undefined {
  const { report } = context;
  const fn = module?.handlers[name];
  if (spec.jsonata !== undefined && fn) {
    report.error("E_HANDLER_DUPLICATE", [...path, "jsonata"], `"${name}" has two handlers: this jsonata and the entry in ${module?.file}`, { key: true });
    return undefined;
  }
  if (spec.jsonata !== undefined) {
    const jsonata = checkJsonata(spec.jsonata, [...path, "jsonata"], context);
    return jsonata && { kind: "jsonata", jsonata, source: report.location([...path, "jsonata"]) };
  }
  if (fn) return { kind: "module", fn: fn as F, file: module!.file, source: report.location(path) };
  // A module that failed to load is reported once, not once per tool it would have handled.
  if (module?.failed) return undefined;
  report.error("E_HANDLER_MISSING", path, `"${name}" has no handler`, {
    key: true,
    hint: module
      ? `Add \`jsonata\`, or an entry "${name}" in ${module.file}.${suggestion(name, Object.keys(module.handlers))}`
      : "Add `jsonata`, or a `handlers` module with an entry of the same name.",
  });
  return undefined;
}
