/**
 * engine/tools/view/: `eval-simulate view`, the viewer of finished runs. What the page shows,
 * computed from the trial lines (`view-data.ts`: summaries, pass^k curves, selection scores, the
 * comparison of two runs), and the site written to a folder or served on loopback
 * (`view-site.ts`); the page and its bundle are the inspector's (engine/serve/inspect/), so live
 * and finished runs look the same.
 *
 * Other folders import this folder through this file only.
 */
export { viewData } from "./view-data.js";
export type { ViewData, ViewRun, ViewSelection } from "./view-data.js";
export { viewHandler, writeViewSite } from "./view-site.js";
