/** Style sheets are imported for esbuild to bundle into viewer.css. */
declare module "*.css";
