import type { EvalCase, EvalsDocument } from "../../../schema/evals/evals.js";
import { compileExpression, variableSteps } from "../../author/handlers/index.js";
import { type LoadedFakes, requiredMissing } from "../../author/fakes/index.js";
import { entityMapOf } from "../../core/record/index.js";
import { suggestion } from "../../author/source/index.js";
import type { Report } from "../../author/source/index.js";
import type { PathSegment } from "../../author/source/index.js";
import { type FakeMaps, fakeMaps } from "./fake-maps.js";
import { checkGrading } from "./check-grading.js";
import { checkConversation } from "./check-conversation.js";
import { compilePattern, isPattern } from "./match-value.js";
import { checkSelectionContent } from "../selection/index.js";

type Path = PathSegment[];

/** Every `$pattern` inside a value, with its path. */
function patternsIn(value: unknown, path: Path, out: Array<{ path: Path; pattern: string; flags?: string }>): typeof out {
  if (isPattern(value)) out.push({ path: [...path, "$pattern"], pattern: value.$pattern, flags: value.$flags });
  else if (Array.isArray(value)) value.forEach((item, i) => patternsIn(item, [...path, i], out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) patternsIn(v, [...path, k], out);
  return out;
}

/** A pattern the judge can run: valid JavaScript, and on RE2 (there is no fallback engine for an agent's text). */
function checkPattern(report: Report, path: Path, pattern: string, flags = ""): void {
  const regex = compilePattern(pattern, flags);
  if (!(regex instanceof Error)) return;
  if (regex instanceof SyntaxError) return report.error("E_PATTERN", path, `the pattern /${pattern}/${flags} does not compile: ${regex.message}`);
  report.error("E_PATTERN", path, regex.message, {
    hint: "Rewrite it for RE2: no lookaround ((?=…), (?!…), (?<=…), (?<!…)) and no backreferences (\\1, \\k<name>); test the text in two patterns, or with JSONata in state.assert or answer.jsonata.",
  });
}

function checkExpression(report: Report, path: Path, source: unknown, maps?: FakeMaps): void {
  if (typeof source !== "string") return;
  const compiled = compileExpression(source);
  if (!compiled.ok)
    return report.error("E_JSONATA_SYNTAX", path, compiled.error.message, { position: report.source.positionInString(path, compiled.error.offset) });
  if (maps) checkWorldReads(report, path, source, maps);
}

/**
 * `$final.crm.taks` (or `$initial`, `$world`, `$diff`) names an entity no fake has: it reads
 * nothing, and the assertion judges an empty entity. An error, with the nearest entity.
 */
function checkWorldReads(report: Report, path: Path, source: string, maps: FakeMaps): void {
  const fakes = Object.keys(maps.maps);
  for (const read of variableSteps(source, ["initial", "final", "world", "diff"], 2)) {
    const [fake, entity] = read.names as [string, string | undefined];
    const position = report.source.positionInString(path, read.offsets[0]!);
    if (!fakes.includes(fake)) {
      report.error("E_UNKNOWN_ENTITY", path, `$${read.variable}.${fake} names no fake of the manifest.${suggestion(fake, fakes)}`, {
        position,
        hint: `Fakes: ${fakes.join(", ")}; name an entity as $${read.variable}.<fake>.<entity>.`,
      });
      continue;
    }
    const own = maps.entities.filter((ref) => ref.startsWith(`${fake}.`));
    // A fake whose entities are not declared (an emulated one) says nothing to hold a name to.
    if (entity === undefined || own.length === 0 || own.includes(`${fake}.${entity}`)) continue;
    report.error("E_UNKNOWN_ENTITY", path, `$${read.variable}.${fake}.${entity} names no entity of ${fake}.${suggestion(`${fake}.${entity}`, own)}`, {
      position: report.source.positionInString(path, read.offsets[1]!),
      hint: `Entities of ${fake}: ${own.map((ref) => ref.slice(fake.length + 1)).join(", ")}.`,
    });
  }
}

function checkTool(report: Report, maps: FakeMaps, names: string[], path: Path, name: unknown): void {
  if (typeof name !== "string") return;
  const found = maps.resolve(name);
  if (found.length === 1) return;
  if (found.length === 0)
    return report.error(
      "E_UNKNOWN_TOOL",
      path,
      `no fake serves a tool named "${name}".${suggestion(name, name.includes("/") ? names : names.map((n) => n.slice(n.indexOf("/") + 1)))}`,
      {
        hint: "Name a tool as <server>/<tool> (or <api>/<operation>), bare when one fake serves it.",
      },
    );
  report.error("E_UNKNOWN_TOOL", path, `"${name}" may mean any of ${found.map((f) => `${f.server}/${f.tool}`).join(", ")}`, {
    hint: "Name it as <server>/<tool>.",
  });
}

function checkEntity(report: Report, maps: FakeMaps, path: Path, ref: unknown, key = false, fakeAlone = false): void {
  if (typeof ref !== "string") return;
  if (maps.entities.includes(ref) || (fakeAlone && Object.hasOwn(maps.maps, ref))) return;
  report.error("E_UNKNOWN_ENTITY", path, `no fake has an entity "${ref}".${suggestion(ref, maps.entities)}`, {
    key,
    hint: "Name an entity as <fake>.<entity>, as the manifest declares it.",
  });
}

/**
 * The checks of an evals file's content against its fakes, beyond its schema: names of tools,
 * entities and scenarios exist; `$pattern`s compile; JSONata parses; `iterations` goes with
 * `accuracyThreshold`; ids are unique; selection fixtures fit the served catalog. Every problem is reported at its place.
 */
export function checkEvalsContent(evals: EvalsDocument, loaded: LoadedFakes, report: Report): void {
  const maps = fakeMaps(loaded);
  const names = Object.values(maps.maps).flatMap((m) => Object.keys(entityMapOf(m)).map((t) => `${m.id}/${t}`));
  const cases = Array.isArray(evals.cases) ? evals.cases : [];
  const selection = Array.isArray(evals.selection) ? evals.selection : [];
  if (cases.length === 0 && selection.length === 0)
    report.error("E_CASE", [], "the evals file holds no cases and no selection fixtures", { hint: "Add `cases:` (or `selection:`)." });
  const ids = new Set<string>();
  for (const [i, c] of cases.entries()) {
    if (!c || typeof c !== "object") continue;
    if (typeof c.id === "string") {
      if (ids.has(c.id)) report.error("E_DUPLICATE_ID", ["cases", i, "id"], `two cases have the id "${c.id}"`, { hint: "Give every case its own id." });
      ids.add(c.id);
    }
    checkCase(c, ["cases", i], { report, maps, names, loaded });
  }
  checkSelectionContent(evals, loaded.fakes, report);
}

interface Scope {
  report: Report;
  maps: FakeMaps;
  names: string[];
  loaded: LoadedFakes;
}

/**
 * A case's `fakes`: each names a fake of the manifest (did you mean), and together they hold
 * every `required: true` one. Returns them when the case names some.
 */
function checkCaseFakes(c: EvalCase, at: Path, report: Report, loaded: LoadedFakes): string[] | undefined {
  if (!Array.isArray(c.fakes)) return undefined;
  const ids = Object.keys(loaded.fakes);
  const named = c.fakes.filter((id): id is string => typeof id === "string");
  for (const [j, id] of c.fakes.entries()) {
    if (typeof id === "string" && !Object.hasOwn(loaded.fakes, id)) {
      report.error("E_UNKNOWN_FAKE", [...at, "fakes", j], `no fake "${id}" in the fakes manifest.${suggestion(id, ids)}`, {
        hint: `Name a server or api of the manifest: ${ids.join(", ")}.`,
      });
    }
  }
  const missing = requiredMissing(loaded.fakes, named);
  if (missing.length > 0) {
    const list = missing.map((id) => `"${id}"`).join(", ");
    report.error("E_CASE", [...at, "fakes"], `the case's fakes leave out ${list}, which the manifest marks required: true`, {
      key: true,
      hint: `Add ${missing.join(", ")} to \`fakes\`: the Recipe cannot run without ${missing.length === 1 ? "it" : "them"}.`,
    });
  }
  return named;
}

function checkCase(c: EvalCase, at: Path, { report, maps, names, loaded }: Scope): void {
  const expression = (r: Report, path: Path, source: unknown) => checkExpression(r, path, source, maps);
  const scenarios = loaded.world.scenarios;
  if (typeof c.scenario === "string" && scenarios.length > 0 && !scenarios.includes(c.scenario)) {
    report.error("E_UNKNOWN_SCENARIO", [...at, "scenario"], `no scenario "${c.scenario}" in the fakes manifest.${suggestion(c.scenario, scenarios)}`, {
      hint: `Scenarios: ${scenarios.join(", ")}.`,
    });
  }
  if (typeof c.clock === "string" && Number.isNaN(Date.parse(c.clock)))
    report.error("E_CASE", [...at, "clock"], `the clock "${c.clock}" is not an ISO 8601 time`);
  if ((c.iterations === undefined) !== (c.accuracyThreshold === undefined)) {
    const [has, lacks] = c.iterations === undefined ? ["accuracyThreshold", "iterations"] : ["iterations", "accuracyThreshold"];
    report.error("E_CASE", [...at, has], `${has} is set without ${lacks}: set both (how many trials, and the share that must pass)`, { key: true });
  }
  const only = checkCaseFakes(c, at, report, loaded);
  for (const [j, call] of (c.script?.calls ?? []).entries()) {
    const path = [...at, "script", "calls", j, "tool"];
    checkTool(report, maps, names, path, call?.tool);
    const found = typeof call?.tool === "string" ? maps.resolve(call.tool) : [];
    if (only && found.length === 1 && !only.includes(found[0].server)) {
      report.error(
        "E_UNKNOWN_TOOL",
        path,
        `${found[0].server}/${found[0].tool} is served by "${found[0].server}", which the case's fakes (${only.join(", ")}) leave out`,
        { hint: "Add the fake to the case's `fakes`, or call a tool of one it names." },
      );
    }
  }
  checkConversation(c, at, { report, loaded, checkTool: (r, path, name) => checkTool(r, maps, names, path, name), checkExpression });
  const expect = c.expect;
  if (!expect || typeof expect !== "object") return;
  const e: Path = [...at, "expect"];
  for (const [j, m] of (expect.calls ?? []).entries()) {
    checkTool(report, maps, names, [...e, "calls", j, "tool"], m?.tool);
    for (const p of patternsIn(m?.arguments, [...e, "calls", j, "arguments"], [])) checkPattern(report, p.path, p.pattern, p.flags);
  }
  for (const [j, name] of (Array.isArray(expect.forbidden) ? expect.forbidden : []).entries()) checkTool(report, maps, names, [...e, "forbidden", j], name);
  const state = expect.state;
  if (state) {
    for (const kind of ["changed", "unchanged"] as const)
      for (const [j, ref] of (state[kind] ?? []).entries()) checkEntity(report, maps, [...e, "state", kind, j], ref);
    for (const [ref, diff] of Object.entries(state.diff ?? {})) {
      checkEntity(report, maps, [...e, "state", "diff", ref], ref, true);
      for (const p of patternsIn(diff, [...e, "state", "diff", ref], [])) checkPattern(report, p.path, p.pattern, p.flags);
    }
    for (const [j, a] of (state.assert ?? []).entries()) expression(report, [...e, "state", "assert", j, "jsonata"], a?.jsonata);
  }
  checkGrading(report, e, expect, expression);
  const golden = expect.golden;
  if (golden) {
    const calls = Array.isArray(golden) ? golden : (golden.calls ?? []);
    const base: Path = Array.isArray(golden) ? [...e, "golden"] : [...e, "golden", "calls"];
    for (const [j, call] of calls.entries()) checkTool(report, maps, names, [...base, j, "tool"], call?.tool);
    if (!Array.isArray(golden))
      for (const [j, ref] of (golden.entities ?? []).entries()) checkEntity(report, maps, [...e, "golden", "entities", j], ref, false, true);
  }
  const answer = expect.answer;
  if (answer) {
    if (answer.contains === undefined && answer.pattern === undefined && answer.jsonata === undefined)
      report.error("E_CASE", [...e, "answer"], "answer needs one of contains, pattern, jsonata");
    if (typeof answer.pattern === "string") checkPattern(report, [...e, "answer", "pattern"], answer.pattern, answer.flags);
    expression(report, [...e, "answer", "jsonata"], answer.jsonata);
  }
}
