/**
 * `--prices prices.json`: the prices of models the built-in table lacks (a local model, a new
 * release), `{ "provider:model": { "input": 0.1, "output": 0.4 } }` in US dollars per million
 * tokens, so a budget can count their spend.
 */
import type { Price } from "../engine/eval/models/index.js";
import { readRegularFile } from "../engine/core/files/index.js";

/**
 * Reads and checks a prices file; every problem in one error (`[eval-simulate] ...`).
 *
 * @example const prices = readPrices("prices.json"); // { "openai-compatible:qwen3": { input: 0.1, output: 0.4 } }
 */
export function readPrices(file: string): Record<string, Price> {
  // A regular file under 1 MiB only, and never quoted: JSON.parse's message shows the text.
  const read = readRegularFile(file, 1024 * 1024);
  if (!read.ok) throw new Error(`[eval-simulate] --prices ${file}: it ${read.reason}`);
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch {
    throw new Error(`[eval-simulate] --prices ${file}: cannot read it as JSON`);
  }
  const shape = '{ "provider:model": { "input": 3, "output": 15 } } (dollars per million tokens)';
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`[eval-simulate] --prices ${file}: expected ${shape}`);
  const problems: string[] = [];
  for (const [model, price] of Object.entries(value)) {
    const p = price as Partial<Price> | null;
    const ok = (n: unknown) => typeof n === "number" && Number.isFinite(n) && n >= 0;
    if (!model.includes(":")) problems.push(`"${model}" is not provider:model`);
    if (typeof p !== "object" || p === null || !ok(p.input) || !ok(p.output) || Object.keys(p).some((k) => k !== "input" && k !== "output"))
      problems.push(`"${model}" needs { "input": n, "output": n }, numbers of at least 0`);
  }
  if (problems.length > 0) throw new Error(`[eval-simulate] --prices ${file}: ${problems.join("; ")}; expected ${shape}`);
  return value as Record<string, Price>;
}
