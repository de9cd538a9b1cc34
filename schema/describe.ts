/**
 * Annotations every property of the manifest carries, so an editor's hover and completion teach
 * the format: `description` for plain-text clients, `markdownDescription` for VS Code.
 */
export interface Described {
  [key: string | symbol]: unknown;
  description: string;
  markdownDescription: string;
  examples?: unknown[];
  default?: unknown;
}

/**
 * The annotation object for one property. The markdown form is the same text: the prose is
 * written so that backticks read well in both.
 *
 * @example Type.String(describe("The server's id.", { examples: ["notes"] }))
 */
export function describe(text: string, extra: { examples?: unknown[]; default?: unknown } = {}): Described {
  return { description: text.replace(/`/g, ""), markdownDescription: text, ...extra };
}

/** The pattern every fake id, scenario name and stub id follows: URL-safe, lowercase. */
export const ID_PATTERN = "^[a-z0-9][a-z0-9-]*$";

/** The pattern entity names and named schemas follow: usable as JSONata names after `$state.`. */
export const NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";
