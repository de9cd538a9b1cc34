/**
 * The router of one API fake: every path of its document, the methods each serves, and the
 * answer for a request that matches none (the nearest templates) or the wrong method (`Allow`).
 */
import { compareTemplates, compileTemplate, matchTemplate, templateDistance, type PathTemplate } from "./path-template.js";

/** One operation of the document as routed: served (with its payload) or only documented. */
export interface RouteOperation<T> {
  method: string;
  template: string;
  /** The compiled operation when the fake serves it; undefined when only the document has it. */
  served?: T;
}

/** Where a request led. */
export type RouteMatch<T> =
  | { kind: "operation"; operation: RouteOperation<T> & { served: T }; params: Record<string, string> }
  /** The path matches templates, none with this method among the served operations. */
  | { kind: "method"; allow: string[]; documented?: RouteOperation<T> }
  /** No template matches; `documented` when the document has it but the fake does not serve it. */
  | { kind: "none"; nearest: string[]; documented?: RouteOperation<T> }
  | { kind: "malformed"; message: string };

interface Route<T> {
  template: PathTemplate;
  methods: Map<string, RouteOperation<T>>;
}

/**
 * Routes requests by path template and method, most specific template first: `/issues/new`
 * before `/issues/{number}`. A path a more specific template matches without the method falls
 * through to the next template that has it; one whose method the document has but the fake
 * does not serve goes no further.
 *
 * @example
 * const router = new ApiRouter([{ method: "GET", template: "/issues/{n}", served: op }]);
 * router.match("GET", "/issues/7"); // { kind: "operation", operation, params: { n: "7" } }
 */
export class ApiRouter<T> {
  private readonly routes: Array<Route<T>> = [];
  private readonly order: string[] = [];

  constructor(operations: Iterable<RouteOperation<T>>) {
    const byTemplate = new Map<string, Route<T>>();
    for (const operation of operations) {
      let route = byTemplate.get(operation.template);
      if (!route) {
        byTemplate.set(operation.template, (route = { template: compileTemplate(operation.template), methods: new Map() }));
        this.order.push(operation.template);
      }
      route.methods.set(operation.method, operation);
    }
    this.routes = [...byTemplate.values()].sort((a, b) => compareTemplates(a.template, b.template));
  }

  /** Routes a normalised path (see `normalizePath`). HEAD falls back to GET. */
  match(method: string, path: string): RouteMatch<T> {
    const matching: Array<{ route: Route<T>; params: Record<string, string> }> = [];
    try {
      for (const route of this.routes) {
        const params = matchTemplate(route.template, path);
        if (params) matching.push({ route, params });
      }
    } catch (error) {
      return { kind: "malformed", message: `the path ${path} has malformed percent-encoding: ${(error as Error).message}` };
    }
    // The most specific template that has the method decides, served or only documented.
    let documented: RouteOperation<T> | undefined;
    for (const { route, params } of matching) {
      const operation = route.methods.get(method) ?? (method === "HEAD" ? route.methods.get("GET") : undefined);
      if (operation === undefined) continue;
      if (operation.served !== undefined) return { kind: "operation", operation: operation as RouteOperation<T> & { served: T }, params };
      documented = operation;
      break;
    }
    const allow = new Set<string>();
    for (const { route } of matching) {
      for (const [name, operation] of route.methods) if (operation.served !== undefined) allow.add(name);
    }
    if (allow.has("GET")) allow.add("HEAD");
    if (allow.size > 0) return { kind: "method", allow: [...allow].sort(), documented };
    return { kind: "none", nearest: this.nearest(path), documented };
  }

  /** Up to `count` served operations (`METHOD /template`) whose templates are nearest the path. */
  nearest(path: string, count = 3): string[] {
    const scored = this.order
      .map((template, index) => ({ template, index, distance: templateDistance(path, template) }))
      .sort((a, b) => a.distance - b.distance || a.index - b.index);
    const names: string[] = [];
    for (const { template } of scored) {
      const route = this.routes.find((r) => r.template.template === template)!;
      for (const [method, operation] of route.methods) {
        if (operation.served !== undefined && names.length < count) names.push(`${method} ${template}`);
      }
      if (names.length >= count) break;
    }
    return names;
  }
}
