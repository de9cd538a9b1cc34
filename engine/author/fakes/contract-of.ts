import { type AnswerSpec, type CapturedTool, type ContractEntry, contractEntry } from "../contract/index.js";

/** A fake's contract: each served tool's entry by name. `CAPTURED_ORDER` keeps the captured order. */
export type Contract = Record<string, ContractEntry>;

/** Where a contract keeps its tools' captured order (object keys that look like integers reorder). */
export const CAPTURED_ORDER = Symbol.for("eval-simulate.captured-order");

/** A captured tools/list: the result `{ tools }` or the bare array. */
export type CapturedTools = { tools: readonly CapturedTool[] } | readonly CapturedTool[];

/** The names of a contract's tools in captured order. */
export function capturedOrder(contract: Contract): string[] {
  return ((contract as { [CAPTURED_ORDER]?: string[] })[CAPTURED_ORDER] ?? Object.keys(contract)).slice();
}

/**
 * Binds a captured tools/list to each tool's declared answer, as the TypeScript front end of a
 * fake (the YAML front end's `answer:` blocks do the same). Throws for an answer of a tool not
 * captured, a missing answer, or an answer for a tool with an outputSchema.
 *
 * @example
 * const contract = contractOf(tools, { "send-email": { format: "prefixed_json", prefix: "Sent! ", schema } });
 */
export function contractOf(tools: CapturedTools, answers: Record<string, AnswerSpec | undefined>): Contract {
  const list = Array.isArray(tools) ? tools : (tools as { tools: readonly CapturedTool[] }).tools;
  const names = list.map((tool) => tool.name);
  for (const name of Object.keys(answers)) {
    if (!names.includes(name)) throw new Error(`[eval-simulate] an answer is declared for "${name}", which is not a captured tool`);
  }
  const contract: Contract = {};
  for (const tool of list) {
    if (!(tool.name in answers) && tool.outputSchema === undefined) continue;
    contract[tool.name] = contractEntry(tool as CapturedTool, answers[tool.name]);
  }
  Object.defineProperty(contract, CAPTURED_ORDER, { value: names.filter((name) => name in contract), enumerable: false });
  return contract;
}
