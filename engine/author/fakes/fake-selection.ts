import { suggestion } from "../source/index.js";

/** Why a selection of fakes cannot be served. */
export type FakeSelectionProblem = "empty" | "unknown" | "required";

/**
 * A subset of fakes that cannot be served: it names none, names an id no fake has, or leaves
 * out a fake the manifest marks `required: true`. `ids` are the ids at fault.
 */
export class FakeSelectionError extends Error {
  constructor(
    message: string,
    readonly problem: FakeSelectionProblem,
    readonly ids: readonly string[],
  ) {
    super(message);
    this.name = "FakeSelectionError";
  }
}

/** What a selection needs to know of a fake: whether the Recipe can run without it. */
interface Selectable {
  manifest: { required?: boolean };
}

/**
 * The ids a selection names, from a comma list (`crm,mail`, as `--fakes` and
 * `EVAL_SIMULATE_FAKES` take it) or several: trimmed, empty entries dropped, each once.
 *
 * @example fakeList(["crm, mail", "crm"]) // ["crm", "mail"]
 */
export function fakeList(values: string | readonly string[]): string[] {
  const all = [values].flat().flatMap((value) => value.split(","));
  return [...new Set(all.map((id) => id.trim()).filter((id) => id !== ""))];
}

/** The ids the selection leaves out that the Recipe cannot run without. */
export function requiredMissing(fakes: Readonly<Record<string, Selectable>>, ids: readonly string[]): string[] {
  return Object.keys(fakes).filter((id) => fakes[id].manifest.required === true && !ids.includes(id));
}

/**
 * Only the fakes `ids` names, in the manifest's order. Refuses (a `FakeSelectionError` whose
 * message names what is wrong, `what` being how the caller named its selection) a selection of
 * none, an id no fake has (with a did-you-mean), and one that leaves out a `required: true` fake.
 *
 * @example selectFakes(fakes, ["crm", "mail"]) // { crm, mail }, when no other fake is required
 */
export function selectFakes<F extends Selectable>(fakes: Readonly<Record<string, F>>, ids: readonly string[], what = "the fakes selected"): Record<string, F> {
  const known = Object.keys(fakes);
  if (ids.length === 0)
    throw new FakeSelectionError(
      `[eval-simulate] ${what} name no fake: name at least one (${known.join(", ")}), or leave the selection out to serve every fake`,
      "empty",
      [],
    );
  const unknown = ids.filter((id) => typeof id !== "string" || !Object.hasOwn(fakes, id));
  if (unknown.length > 0) {
    const each = unknown.map((id) => `no fake "${String(id)}".${suggestion(String(id), known)}`).join(" ");
    throw new FakeSelectionError(`[eval-simulate] ${what} name ${each} The fakes: ${known.join(", ")}`, "unknown", unknown.map(String));
  }
  const missing = requiredMissing(fakes, ids);
  if (missing.length > 0) {
    const named = missing.map((id) => `"${id}"`).join(", ");
    throw new FakeSelectionError(
      `[eval-simulate] ${what} (${ids.join(", ")}) leave out ${named}, which the manifest marks required: true; the Recipe cannot run without ${missing.length === 1 ? "it" : "them"}: add ${missing.join(", ")}`,
      "required",
      missing,
    );
  }
  return Object.fromEntries(known.filter((id) => ids.includes(id)).map((id) => [id, fakes[id]]));
}
