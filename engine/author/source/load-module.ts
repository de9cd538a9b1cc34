import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/**
 * Node strips TypeScript types natively from 22.18 on; before that (Node 20), jiti compiles
 * the module. One jiti instance for the process keeps its cache warm across modules.
 */
const nativeTypeScript = Boolean((process as { features?: { typescript?: unknown } }).features?.typescript);
let jiti: ReturnType<typeof import("jiti").createJiti> | undefined;

/**
 * Imports a user's module (TypeScript or JavaScript) by absolute path, without a build step;
 * `.ts` specifiers between its files work.
 *
 * @example const handlers = await importUserModule("/recipe/fakes/mcp/notes/handlers.ts");
 */
export async function importUserModule(file: string): Promise<Record<string, unknown>> {
  const typescript = /\.[cm]?tsx?$/.test(file);
  if (!typescript) return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  if (nativeTypeScript) {
    try {
      return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch {
      // Native type stripping refuses what jiti takes (`.js` specifiers naming `.ts` files,
      // enums): the same module then loads as it does on Node 20.
    }
  }
  // jiti's require entry, on first use: its ESM entry imports the same 190 kB CommonJS file,
  // which node would scan for named exports (cjs-module-lexer) at every start that loads this.
  jiti ??= (createRequire(import.meta.url)("jiti") as typeof import("jiti")).createJiti(import.meta.url, { fsCache: true, moduleCache: true });
  return (await jiti.import(file)) as Record<string, unknown>;
}
