/**
 * engine/serve/inspect/: `serve --inspect`. The inspector's JSON routes behind the admin token,
 * with the token swapped for a cookie, serving the viewer's page in live mode (`inspect-routes.ts`);
 * the viewer's HTML shell and bundled assets that `eval-simulate view` serves too
 * (`viewer-assets.ts`); and each entity's diff against the start (`world-diff.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { withInspector } from "./inspect-routes.js";
export type { InspectedWorld, TimelineCall } from "./inspect-routes.js";
export type { EntityDiff } from "./world-diff.js";
export { scriptJson, VIEWER_ASSETS, VIEWER_CSP, viewerAsset, viewerPage } from "./viewer-assets.js";
export type { ViewerAsset } from "./viewer-assets.js";
