import { createJiti } from "jiti";
import { pathToFileURL } from "node:url";

/**
 * Node strips TypeScript types natively from 22.18 on; before that (Node 20), jiti compiles
 * the module. One jiti instance for the process keeps its cache warm across modules.
 */
const nativeTypeScript = Boolean((process as { features?: { typescript?: unknown } }).features?.typescript);
let jiti: ReturnType<typeof createJiti> | undefined;

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
  jiti ??= createJiti(import.meta.url, { fsCache: true, moduleCache: true });
  return (await jiti.import(file)) as Record<string, unknown>;
}
