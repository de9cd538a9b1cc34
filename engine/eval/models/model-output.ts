/**
 * A model's answer the runner cannot take: tool-call arguments nested deeper than any fake accepts
 * (the AI SDK would parse and clone them past the stack), or an answer whose reading overflowed
 * the stack inside the provider package. It is the model's doing, never retried and never the
 * provider's fault: the trial fails, judged on what the agent did before.
 */
import { MAX_MESSAGE_DEPTH } from "../../author/contract/index.js";

/** The model answered what cannot be read or run. */
export class ModelOutputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`[eval-simulate] ${message}`, options);
    this.name = "ModelOutputError";
  }
}

/**
 * How many levels of arrays and objects a JSON text opens, counted without parsing and without
 * recursion; stops counting past `limit`.
 *
 * @example jsonTextDepth('{"a":[1,{"b":"]"}]}', 100) // 3
 */
export function jsonTextDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

function overflowed(error: unknown): boolean {
  for (let e = error, n = 0; e !== undefined && e !== null && n < 8; e = (e as { cause?: unknown }).cause, n++) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) return true;
  }
  return false;
}

type Answer = { content: ReadonlyArray<{ type: string; toolName?: string; input?: unknown }> };

/**
 * One model request's answer, or a ModelOutputError when it cannot be taken: read by `generate`
 * (the provider's `doGenerate`), its tool calls' argument texts measured before the AI SDK parses
 * them.
 *
 * @example wrapGenerate: ({ doGenerate }) => readableAnswer(doGenerate)
 */
export async function readableAnswer<T extends Answer>(generate: () => PromiseLike<T>): Promise<T> {
  let answer: T;
  try {
    answer = await generate();
  } catch (error) {
    if (overflowed(error)) throw new ModelOutputError("the model's answer nests too deep to read", { cause: error });
    throw error;
  }
  for (const part of answer.content) {
    if (part.type === "tool-call" && typeof part.input === "string" && jsonTextDepth(part.input, MAX_MESSAGE_DEPTH) > MAX_MESSAGE_DEPTH) {
      throw new ModelOutputError(`the model called ${part.toolName} with arguments nested deeper than ${MAX_MESSAGE_DEPTH} levels`);
    }
  }
  return answer;
}
