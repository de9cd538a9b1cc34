/**
 * The offline half of tool-selection evals: an evals file's `selection` fixtures checked against
 * the catalog the fakes serve, so renaming or dropping a captured tool fails `validate` (and the
 * Recipe's tests) at once, with every problem at its place.
 */
import type { EvalsDocument, SelectionFixtureDocument } from "../../../schema/evals/evals.js";
import type { Fakes } from "../../author/fakes/index.js";
import { suggestion } from "../../author/source/index.js";
import type { Report } from "../../author/source/index.js";
import { type SelectionCatalog, selectionCatalog } from "./catalog.js";

/** A fixture with its expected tools resolved (`server/tool`) and its area. */
export interface ResolvedFixture {
  id: string;
  query: string;
  /** `server/tool` ids, in the fixture's order. */
  expected: string[];
  area: string;
}

/**
 * The served tool a missing name most likely became: a renamed tool usually keeps part of its
 * old name (read_text_file → read_text), which beats a nearer edit distance to another tool.
 */
function nearestTool(name: string, catalog: SelectionCatalog): string {
  const bare = name.includes("/") ? name.slice(name.indexOf("/") + 1) : name;
  const kept = catalog.tools.filter((t) => t.tool.length >= 4 && bare.length >= 4 && (bare.includes(t.tool) || t.tool.includes(bare)));
  if (kept.length > 0)
    return ` Did you mean "${kept.sort((a, b) => Math.abs(a.tool.length - bare.length) - Math.abs(b.tool.length - bare.length))[0][name.includes("/") ? "id" : "name"]}"?`;
  return suggestion(
    name,
    catalog.tools.flatMap((t) => [t.id, t.name]),
  );
}

/** Whether a name is one of the API fakes' operations (`<api>/<operation>`, or bare). */
function apiOperation(fakes: Fakes, name: string): boolean {
  return Object.entries(fakes).some(
    ([id, fake]) => fake.kind === "api" && fake.manifest.operations.some((op) => name === `${id}/${op.name}` || name === op.name),
  );
}

/** A query as fixtures are compared: case and runs of spaces do not make two queries different. */
const normalQuery = (query: string) => query.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * Each fixture's expected tools and area, resolved against the catalog (names that do not
 * resolve to exactly one tool are dropped: `validate` reports them).
 *
 * @example resolveFixtures(evals.selection ?? [], catalog)[0] // { id, query, expected: ["files/read_text_file"], area: "read" }
 */
export function resolveFixtures(fixtures: readonly SelectionFixtureDocument[], catalog: SelectionCatalog): ResolvedFixture[] {
  return fixtures.map((f) => {
    const expected = f.expectedTools.flatMap((name) => {
      const found = catalog.resolve(name);
      return found.length === 1 ? [found[0].id] : [];
    });
    const first = expected.length > 0 ? catalog.resolve(expected[0])[0] : undefined;
    return { id: f.id, query: f.query, expected, area: f.area ?? first?.area ?? "(none)" };
  });
}

/**
 * Checks `selection` and `selectionOptions` against the fakes' catalog: unique ids and queries;
 * every expected tool served (did-you-mean on a typo), and named once; a fixture's `area` known;
 * the fixture count within `minFixtures`/`maxFixtures`; at least `minAreas` areas, and every
 * area of the catalog covered by a fixture.
 */
export function checkSelectionContent(evals: EvalsDocument, fakes: Fakes, report: Report): void {
  const fixtures = Array.isArray(evals.selection) ? evals.selection : [];
  const options = evals.selectionOptions ?? {};
  if (fixtures.length === 0 && evals.selectionOptions === undefined) return;
  const catalog = selectionCatalog(fakes);
  const ids = new Set<string>();
  const queries = new Map<string, string>();
  for (const [i, f] of fixtures.entries()) {
    if (!f || typeof f !== "object") continue;
    if (ids.has(f.id))
      report.error("E_DUPLICATE_ID", ["selection", i, "id"], `two selection fixtures have the id "${f.id}"`, { hint: "Give every fixture its own id." });
    ids.add(f.id);
    if (typeof f.query === "string") {
      const same = queries.get(normalQuery(f.query));
      if (same !== undefined)
        report.error("E_DUPLICATE_ID", ["selection", i, "query"], `fixture "${f.id}" asks the same query as "${same}"`, {
          hint: "Give every fixture its own query: a repeated one weighs twice in the score.",
        });
      else queries.set(normalQuery(f.query), f.id);
    }
    const seen = new Set<string>();
    for (const [j, name] of (Array.isArray(f.expectedTools) ? f.expectedTools : []).entries()) {
      if (typeof name !== "string") continue;
      const found = catalog.resolve(name);
      const at = ["selection", i, "expectedTools", j];
      if (found.length === 0 && apiOperation(fakes, name)) {
        report.error("E_UNKNOWN_TOOL", at, `"${name}" is an API operation: a selection model is offered the MCP fakes' tools only`, {
          hint: "Expect the MCP tool an agent would call; API operations are reached through the agent's own HTTP tools.",
        });
      } else if (found.length === 0) {
        report.error("E_UNKNOWN_TOOL", at, `no served MCP tool is named "${name}".${nearestTool(name, catalog)}`, {
          hint: "Name a served tool as <server>/<tool>, bare when one server serves it; a renamed or dropped tool in a capture shows here.",
        });
      } else if (found.length > 1) {
        report.error("E_UNKNOWN_TOOL", at, `"${name}" may mean any of ${found.map((t) => t.id).join(", ")}`, { hint: "Name it as <server>/<tool>." });
      } else if (seen.has(found[0].id)) {
        report.error("E_SELECTION", at, `${found[0].id} is expected twice in fixture "${f.id}"`, { hint: "List each expected tool once." });
      } else seen.add(found[0].id);
    }
    if (typeof f.area === "string" && !catalog.areas.includes(f.area)) {
      report.error("E_SELECTION", ["selection", i, "area"], `no area "${f.area}" in the catalog.${suggestion(f.area, catalog.areas)}`, {
        hint: `Areas: ${catalog.areas.join(", ")} (a server's id, or a group under its \`areas\` in the fakes manifest).`,
      });
    }
  }
  const where = (key: keyof typeof options) =>
    options[key] !== undefined ? ["selectionOptions", key] : fixtures.length > 0 ? ["selection"] : ["selectionOptions"];
  const count = fixtures.length;
  if (options.minFixtures !== undefined && options.maxFixtures !== undefined && options.maxFixtures < options.minFixtures) {
    report.error("E_SELECTION", ["selectionOptions", "maxFixtures"], `maxFixtures (${options.maxFixtures}) is below minFixtures (${options.minFixtures})`);
  }
  if (options.minFixtures !== undefined && count < options.minFixtures)
    report.error("E_SELECTION", where("minFixtures"), `${count} selection fixture${count === 1 ? "" : "s"}, fewer than minFixtures (${options.minFixtures})`);
  if (options.maxFixtures !== undefined && count > options.maxFixtures)
    report.error("E_SELECTION", where("maxFixtures"), `${count} selection fixtures, more than maxFixtures (${options.maxFixtures})`);
  const resolved = resolveFixtures(
    fixtures.filter((f) => f && typeof f === "object" && Array.isArray(f.expectedTools)),
    catalog,
  );
  const covered = new Set(resolved.map((f) => f.area).filter((area) => catalog.areas.includes(area)));
  if (options.minAreas !== undefined && covered.size < options.minAreas) {
    report.error(
      "E_SELECTION",
      where("minAreas"),
      `the fixtures cover ${covered.size} area${covered.size === 1 ? "" : "s"} (${[...covered].join(", ") || "none"}), fewer than minAreas (${options.minAreas})`,
      {
        hint: "Group the servers' tools under `areas` in the fakes manifest, or add fixtures for other servers.",
      },
    );
  }
  if (count === 0) return;
  for (const area of catalog.areas) {
    if (covered.has(area)) continue;
    const tools = catalog.tools.filter((t) => t.area === area).map((t) => t.id);
    report.error("E_SELECTION", ["selection"], `no fixture covers the area "${area}" (${tools.join(", ")})`, {
      hint: "Add a fixture whose first expected tool is in it, or one with `area` set to it: an area without fixtures shrinks the eval silently.",
    });
  }
}
