// `npm run build` bundles the viewer (viewer/*.tsx: preact and uPlot) into dist/viewer/viewer.js and
// viewer.css, which the package ships: built every time, so no bundle is committed to drift from
// its sources. One IIFE script (not a module), so a written site opens from disk (file://).
import { build } from "esbuild";

await build({
  entryPoints: { viewer: "viewer/main.tsx" },
  outdir: "dist/viewer",
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "eof",
  logLevel: "warning",
});
