/** The door of engine/serve/inspect/: what other folders may import from it. */
export { withInspector } from "./inspect-routes.js";
export type { InspectedWorld } from "./inspect-routes.js";
