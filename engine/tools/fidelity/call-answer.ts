/**
 * One call's answer as a client received it, from the real server or a fake, in a form two
 * answers can be compared in: the result (text blocks, block types, isError, structured content)
 * or the JSON-RPC error the call was refused with.
 */

/** What a call came back with. */
export interface CallAnswer {
  /** The result, when the call was answered with one. */
  result?: { content: Array<Record<string, unknown>>; isError: boolean; structuredContent?: unknown };
  /** The JSON-RPC error, when the call was refused. */
  error?: { code?: number; message: string };
}

/** Anything with `callTool` and `readResource`: the official client. */
export interface ToolCaller {
  callTool(params: { name: string; arguments?: Record<string, unknown> }, options?: { timeout?: number }): Promise<Record<string, unknown>>;
  readResource(params: { uri: string }, options?: { timeout?: number }): Promise<Record<string, unknown>>;
}

/**
 * Reads a resource and keeps what came back as an answer: each of its contents as a `resource`
 * block (compared whole, its text byte for byte), or the JSON-RPC error.
 *
 * @example const answer = await readForAnswer(client, "memory://knowledge-graph");
 */
export async function readForAnswer(client: ToolCaller, uri: string, timeoutMs = 60_000): Promise<CallAnswer> {
  try {
    const read = await client.readResource({ uri }, { timeout: timeoutMs });
    const contents = (read.contents as Array<Record<string, unknown>> | undefined) ?? [];
    return { result: { content: contents.map((content) => ({ type: "resource", resource: content })), isError: false } };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { error: { ...(typeof code === "number" && { code }), message: String(message ?? error) } };
  }
}

/**
 * Calls a tool and keeps what came back, a JSON-RPC error included.
 *
 * @example const answer = await callForAnswer(client, "read_graph", {});
 */
export async function callForAnswer(client: ToolCaller, tool: string, args: Record<string, unknown>, timeoutMs = 60_000): Promise<CallAnswer> {
  try {
    const result = await client.callTool({ name: tool, arguments: args }, { timeout: timeoutMs });
    return {
      result: {
        content: (result.content as Array<Record<string, unknown>> | undefined) ?? [],
        isError: result.isError === true,
        ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }),
      },
    };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { error: { ...(typeof code === "number" && { code }), message: String(message ?? error) } };
  }
}

/** The text of the answer: its text blocks joined by a line break, or the error's message. */
export function answerText(answer: CallAnswer): string {
  if (answer.error) return `JSON-RPC error${answer.error.code === undefined ? "" : ` ${answer.error.code}`}: ${answer.error.message}`;
  const blocks = answer.result?.content ?? [];
  const texts = (block: Record<string, unknown>) =>
    block.type === "text"
      ? [String(block.text)]
      : block.type === "resource" && typeof (block.resource as { text?: unknown })?.text === "string"
        ? [String((block.resource as { text: string }).text)]
        : [];
  return blocks.flatMap(texts).join("\n");
}

/**
 * How two answers to the same call differ: the error or not, `isError`, the content blocks'
 * types, each text block byte for byte, the other blocks as JSON, and the structured content
 * (compared as JSON values, so key order does not count). Empty when they are the same.
 *
 * @example answerDifferences(real, fake); // ["text differs"]
 */
export function answerDifferences(real: CallAnswer, fake: CallAnswer): string[] {
  if (real.error || fake.error) {
    if (!real.error) return ["the fake refused the call with a JSON-RPC error; the real server answered it"];
    if (!fake.error) return ["the real server refused the call with a JSON-RPC error; the fake answered it"];
    const differences: string[] = [];
    if (real.error.code !== fake.error.code) differences.push(`error code ${real.error.code} vs ${fake.error.code}`);
    if (real.error.message !== fake.error.message) differences.push("error message differs");
    return differences;
  }
  const a = real.result!;
  const b = fake.result!;
  const differences: string[] = [];
  if (a.isError !== b.isError) differences.push(`isError ${a.isError} vs ${b.isError}`);
  const types = (content: Array<Record<string, unknown>>) => content.map((block) => String(block.type)).join(", ");
  if (types(a.content) !== types(b.content)) differences.push(`content blocks [${types(a.content)}] vs [${types(b.content)}]`);
  else {
    a.content.forEach((block, i) => {
      const other = b.content[i];
      if (block.type === "text" ? block.text !== other.text : canonical(block) !== canonical(other))
        differences.push(`content[${i}] (${String(block.type)}) differs`);
    });
  }
  if ((a.structuredContent === undefined) !== (b.structuredContent === undefined)) {
    differences.push(
      a.structuredContent === undefined
        ? "the fake sent structured content; the real server did not"
        : "the real server sent structured content; the fake did not",
    );
  } else if (canonical(a.structuredContent) !== canonical(b.structuredContent)) differences.push("structured content differs");
  return differences;
}

/** JSON with object keys sorted, so two values compare regardless of key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}
