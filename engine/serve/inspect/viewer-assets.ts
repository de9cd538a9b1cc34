/**
 * The viewer's page and its bundle, shared by `eval-simulate view` (finished runs) and
 * `serve --inspect` (live worlds): one HTML shell, the script and style `npm run build` bundles
 * into `dist/viewer/` (preact and uPlot inside, nothing fetched from elsewhere, so it works
 * offline and from a folder of files). Data from results files is embedded as JSON with every
 * `<` escaped, so no text in it can close the script element; the page renders it as text.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../author/manifest/index.js";

/** The bundle's files, by the name the page asks for. */
export const VIEWER_ASSETS = { "viewer.js": "text/javascript; charset=utf-8", "viewer.css": "text/css; charset=utf-8" } as const;
export type ViewerAsset = keyof typeof VIEWER_ASSETS;

const cache = new Map<string, string>();

/**
 * One file of the bundle. Throws naming the build when `dist/viewer/` was never built.
 *
 * @example const script = viewerAsset("viewer.js");
 */
export function viewerAsset(name: ViewerAsset): string {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const path = join(packageRoot(), "dist/viewer", name);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new Error(`[eval-simulate] the viewer's bundle ${path} is missing: run \`npm run build\` in the package`);
  }
  cache.set(name, text);
  return text;
}

/** JSON safe inside a `<script>` element: no `<` (so no `</script>` or `<!--`), no line separators. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * The viewer's HTML: `mode` "runs" with the runs' data embedded, or "live" (the page polls the
 * inspector's JSON routes). `base` is where the bundle's files are (`""` beside the page).
 *
 * @example viewerPage({ mode: "live", base: "/_inspect/" })
 */
export function viewerPage(options: { mode: "runs" | "live"; base: string; data?: unknown; title?: string }): string {
  const data = options.data === undefined ? "" : `<script type="application/json" id="view-data">${scriptJson(options.data)}</script>\n`;
  const title = options.mode === "live" ? "eval-simulate inspector" : (options.title ?? "eval-simulate runs");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title.replace(/[<>&"]/g, "")}</title>
<link rel="stylesheet" href="${options.base}viewer.css">
</head>
<body data-mode="${options.mode}">
<div id="app"></div>
${data}<script src="${options.base}viewer.js"></script>
</body>
</html>
`;
}

/** The Content-Security-Policy of every viewer page: its own script and style only, nothing from elsewhere. */
export const VIEWER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
