/**
 * The viewer's addresses: hash routes, so every page, trial and commit has a URL a CI comment
 * can point at, and a written site needs no server to route. Each part is URI-encoded.
 */

export type Route =
  | { page: "run"; run: number }
  | { page: "case"; run: number; case: string }
  | { page: "trial"; run: number; trial: string; commit?: number }
  | { page: "compare" }
  | { page: "selection"; run: number }
  | { page: "live"; world?: string };

/** The route a location hash names; the first run's page for anything else. */
export function parseRoute(hash: string, live: boolean): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (live) return { page: "live", ...(parts[0] === "world" && parts[1] ? { world: parts[1] } : {}) };
  if (parts[0] === "compare") return { page: "compare" };
  const run = parts[0] === "run" && /^\d+$/.test(parts[1] ?? "") ? Number(parts[1]) : 0;
  if (parts[2] === "case" && parts[3] !== undefined) return { page: "case", run, case: parts[3] };
  if (parts[2] === "trial" && parts[3] !== undefined) {
    const commit = parts[4] === "commit" && /^\d+$/.test(parts[5] ?? "") ? Number(parts[5]) : undefined;
    return { page: "trial", run, trial: parts[3], ...(commit === undefined ? {} : { commit }) };
  }
  if (parts[2] === "selection") return { page: "selection", run };
  return { page: "run", run };
}

const part = encodeURIComponent;

/** The hash of a route. */
export function href(route: Route): string {
  switch (route.page) {
    case "run":
      return `#/run/${route.run}`;
    case "case":
      return `#/run/${route.run}/case/${part(route.case)}`;
    case "trial":
      return `#/run/${route.run}/trial/${part(route.trial)}${route.commit === undefined ? "" : `/commit/${route.commit}`}`;
    case "compare":
      return "#/compare";
    case "selection":
      return `#/run/${route.run}/selection`;
    case "live":
      return route.world === undefined ? "#/" : `#/world/${part(route.world)}`;
  }
}

/** A trial's key in addresses, as the results file keys it: `case#iteration@model`. */
export const trialKey = (t: { case: string; iteration: number; model: string }) => `${t.case}#${t.iteration}@${t.model}`;
