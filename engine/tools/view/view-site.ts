/**
 * The viewer of finished runs as a site: written to a folder (`view --out site/`: an
 * `index.html` with the data inside, and the bundle beside it, so it opens from disk or any
 * static host), or served on loopback behind the port's Host/Origin guard (a page of another
 * site, or a rebound name, reads nothing of the runs).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FetchHandler } from "../../serve/http/index.js";
import { browserGuard } from "../../serve/host/index.js";
import { VIEWER_ASSETS, VIEWER_CSP, type ViewerAsset, viewerAsset, viewerPage } from "../../serve/inspect/index.js";
import type { ViewData } from "./view-data.js";

const title = (data: ViewData) => `eval-simulate: ${data.runs.map((r) => r.label).join(" vs ")}`;

/**
 * Writes the viewer of `data` into `dir` (created when missing): `index.html`, `viewer.js`,
 * `viewer.css`. Returns the files written.
 *
 * @example writeViewSite("site", viewData(runs)); // open site/index.html
 */
export function writeViewSite(dir: string, data: ViewData): string[] {
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string]> = [
    ["index.html", viewerPage({ mode: "runs", base: "", data, title: title(data) })],
    ...Object.keys(VIEWER_ASSETS).map((name): [string, string] => [name, viewerAsset(name as ViewerAsset)]),
  ];
  for (const [name, text] of files) writeFileSync(join(dir, name), text);
  return files.map(([name]) => join(dir, name));
}

/**
 * The viewer of `data` as a fetch handler: the page at `/`, its bundle, and `/view.json`, behind
 * the browser guard (loopback names and origins only, unless `bound` says otherwise).
 *
 * @example const { port } = await listen(viewHandler(viewData(runs)), { port: 0 });
 */
export function viewHandler(data: ViewData, options: { bound?: string } = {}): FetchHandler {
  const page = viewerPage({ mode: "runs", base: "/", data, title: title(data) });
  const headers = { "cache-control": "no-store", "referrer-policy": "no-referrer", "x-content-type-options": "nosniff" };
  const routes: FetchHandler = async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method !== "GET" && request.method !== "HEAD") return new Response("method not allowed\n", { status: 405, headers: { allow: "GET, HEAD" } });
    if (pathname === "/" || pathname === "/index.html")
      return new Response(page, {
        headers: { "content-type": "text/html; charset=utf-8", ...headers, "x-frame-options": "DENY", "content-security-policy": VIEWER_CSP },
      });
    if (pathname === "/view.json") return new Response(JSON.stringify(data), { headers: { "content-type": "application/json", ...headers } });
    const name = pathname.slice(1);
    if (Object.hasOwn(VIEWER_ASSETS, name))
      return new Response(viewerAsset(name as ViewerAsset), { headers: { "content-type": VIEWER_ASSETS[name as ViewerAsset], ...headers } });
    return new Response("not found\n", { status: 404, headers: { "content-type": "text/plain", ...headers } });
  };
  return browserGuard(routes, { bound: options.bound ?? "127.0.0.1" });
}
