/**
 * OpenAPI path templates as matchers. A template is compiled to an anchored regular expression
 * over the request path, so literal colons (`/root:/{path}:/content`), parameters with dashes
 * (`{message-id}`) and parameters beside literal text (`{id}.json`) all work; templates are
 * ranked so literal segments beat templated ones.
 */

/** One compiled path template. */
export interface PathTemplate {
  template: string;
  /** Parameter names in the order they appear. */
  names: string[];
  regex: RegExp;
  /** Per segment: 2 literal, 1 literal text beside a parameter, 0 a parameter alone. */
  rank: number[];
  /** Literal characters in the template: a tie-break between equal ranks. */
  literalLength: number;
}

const PARAMETER = /\{([^{}]+)\}/g;

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Compiles a path template. A parameter matches one path segment, except one written between
 * `:/` and `:` (Microsoft Graph's path addressing, `root:/{path}:/content`), which matches an
 * item path across segments.
 *
 * @example
 * const t = compileTemplate("/users/{user-id}/messages/{message-id}");
 * matchTemplate(t, "/users/u1/messages/m%2F2"); // { "user-id": "u1", "message-id": "m/2" }
 */
export function compileTemplate(template: string): PathTemplate {
  const names: string[] = [];
  let source = "";
  let last = 0;
  for (const found of template.matchAll(PARAMETER)) {
    const index = found.index ?? 0;
    source += escapeRegex(template.slice(last, index));
    last = index + found[0].length;
    names.push(found[1]);
    const colonPath = template.slice(0, index).endsWith(":/") && template[last] === ":";
    source += colonPath ? "([^:]+)" : "([^/]+)";
  }
  source += escapeRegex(template.slice(last));
  const segments = template.split("/").slice(1);
  const rank = segments.map((segment) => (!segment.includes("{") ? 2 : segment.replace(PARAMETER, "") === "" ? 0 : 1));
  return { template, names, regex: new RegExp(`^${source}$`), rank, literalLength: template.replace(PARAMETER, "").length };
}

/**
 * The template's parameters in a normalised path (see `normalizePath`), each fully decoded,
 * or undefined when the path does not match. Throws URIError on malformed percent-encoding.
 *
 * @example matchTemplate(compileTemplate("/root:/{path}:/content"), "/root:/a/b.txt:/content"); // { path: "a/b.txt" }
 */
export function matchTemplate(template: PathTemplate, path: string): Record<string, string> | undefined {
  const found = template.regex.exec(path);
  if (!found) return undefined;
  const params: Record<string, string> = {};
  template.names.forEach((name, i) => {
    params[name] = decodeURIComponent(found[i + 1]);
  });
  return params;
}

/**
 * Negative when `a` is the more specific template: it is tried first.
 *
 * @example templates.sort(compareTemplates);
 */
export function compareTemplates(a: PathTemplate, b: PathTemplate): number {
  for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i++) {
    const difference = (b.rank[i] ?? -1) - (a.rank[i] ?? -1);
    if (difference !== 0) return difference;
  }
  return b.literalLength - a.literalLength;
}

/**
 * A request path with every percent-encoded ASCII character decoded except `/` and `%`, so
 * literal template text matches however a client encoded it (`root%3A` is `root:`) while an
 * encoded slash stays inside its segment. Parameters are fully decoded after matching.
 *
 * @example normalizePath("/drive/root%3A/a%2Fb%3A/content"); // "/drive/root:/a%2Fb:/content"
 */
export function normalizePath(path: string): string {
  const decoded = path.replace(/%([0-7][0-9A-Fa-f])/g, (whole, hex: string) => {
    const code = parseInt(hex, 16);
    return code === 0x2f || code === 0x25 ? whole.toUpperCase() : String.fromCharCode(code);
  });
  // A trailing slash names the same resource (`/issues/` is `/issues`); the root stays `/`.
  return decoded.length > 1 ? decoded.replace(/\/+$/, "") || "/" : decoded || "/";
}

/** The non-empty segments of a path or template, for measuring nearness. */
function segmentsOf(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

/** Edit distance between two strings, for typos in a literal segment. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

/**
 * How far a request path is from a template, by segments: a literal segment that differs
 * costs its share of changed characters, a parameter segment matches anything at a small
 * cost, a missing or extra segment costs one.
 *
 * @example templateDistance("/repos/o/r/isues", "/repos/{owner}/{repo}/issues"); // about 0.67
 */
export function templateDistance(path: string, template: string): number {
  const a = segmentsOf(path);
  const b = segmentsOf(template);
  const cost = (x: string, y: string): number => {
    if (x === y) return 0;
    if (/^\{[^{}]+\}$/.test(y)) return 0.25;
    return editDistance(x, y.replace(PARAMETER, "")) / Math.max(x.length, y.length, 1);
  };
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost(a[i - 1], b[j - 1]));
    previous = current;
  }
  return previous[b.length];
}
