/**
 * engine/serve/inspect/: `serve --inspect`. The inspector page (`inspector-page.ts`, no
 * dependencies), its JSON routes behind the admin token, with the token swapped for a cookie
 * (`inspect-routes.ts`), and each entity's diff against the start (`world-diff.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { withInspector } from "./inspect-routes.js";
export type { InspectedWorld } from "./inspect-routes.js";
