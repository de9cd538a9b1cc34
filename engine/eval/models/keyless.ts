/**
 * The keyless check: a run whose model has no key is skipped, never failed, so CI without
 * secrets (a fork's pull request) stays green and says which variable to set.
 */
import { missingKey, parseModel } from "./model-spec.js";

/** A model a run needs and the variable its key is missing from. */
export interface MissingKey {
  model: string;
  variable: string;
}

/**
 * The models (of `provider:model` ids, each with its base URL) whose key is not set, each once.
 *
 * @example missingKeys([{ model: "openai:gpt-4.1" }], {}) // [{ model: "openai:gpt-4.1", variable: "OPENAI_API_KEY" }]
 */
export function missingKeys(models: ReadonlyArray<{ model: string; baseURL?: string }>, env: NodeJS.ProcessEnv = process.env): MissingKey[] {
  const seen = new Map<string, MissingKey>();
  for (const { model, baseURL } of models) {
    if (seen.has(model)) continue;
    const variable = missingKey(parseModel(model, baseURL), env);
    if (variable !== undefined) seen.set(model, { model, variable });
  }
  return [...seen.values()];
}

/**
 * The line a keyless run prints: which variable to set for which models.
 *
 * @example skipMessage([{ model: "anthropic:claude-sonnet-4-5", variable: "ANTHROPIC_API_KEY" }])
 */
export function skipMessage(missing: readonly MissingKey[]): string {
  const byVariable = new Map<string, string[]>();
  for (const { model, variable } of missing) byVariable.set(variable, [...(byVariable.get(variable) ?? []), model]);
  const parts = [...byVariable].map(([variable, models]) => `set ${variable} to run ${models.join(", ")}`);
  return `[eval-simulate] skipped: no API key: ${parts.join("; ")}`;
}
