/**
 * MCP content blocks a fake may answer besides text: image, audio, resource_link and embedded
 * resource, as the 2025-11-25 schema defines them. A JSONata handler of a `format: content` tool
 * or a stub's `content` outcome answers them; they are checked here before they reach a client.
 */

type Block = Record<string, unknown>;

const isString = (value: unknown): value is string => typeof value === "string";
const isObject = (value: unknown): value is Block => typeof value === "object" && value !== null && !Array.isArray(value);

/** What each kind of block must hold, beside its `type`. */
const REQUIRED: Record<string, Array<[string, (value: unknown) => boolean, string]>> = {
  text: [["text", isString, "a string"]],
  image: [
    ["data", isString, "base64 text"],
    ["mimeType", isString, "a string"],
  ],
  audio: [
    ["data", isString, "base64 text"],
    ["mimeType", isString, "a string"],
  ],
  resource_link: [
    ["uri", isString, "a string"],
    ["name", isString, "a string"],
  ],
  resource: [["resource", isObject, "an object with uri and text or blob"]],
};

/** The kinds of content block a fake may answer. */
export const CONTENT_BLOCK_TYPES = Object.keys(REQUIRED);

/**
 * Why a list of content blocks is not one MCP carries; empty when it is. Unknown kinds, missing
 * fields, data that is not base64 and an embedded resource without `uri` and `text`/`blob` are
 * named with the block's index.
 *
 * @example contentBlockProblems([{ type: "image", data: "iVBO", mimeType: "image/png" }]); // []
 */
export function contentBlockProblems(blocks: unknown): string[] {
  if (!Array.isArray(blocks)) return ["content is a list of content blocks"];
  if (blocks.length === 0) return ["content holds no block"];
  const problems: string[] = [];
  blocks.forEach((block, index) => {
    const at = `content[${index}]`;
    if (!isObject(block) || !isString(block.type)) return void problems.push(`${at} is not a content block (an object with a "type")`);
    const required = REQUIRED[block.type];
    if (!required) return void problems.push(`${at} has type "${block.type}"; a content block is one of ${CONTENT_BLOCK_TYPES.join(", ")}`);
    for (const [key, ok, what] of required) if (!ok(block[key])) problems.push(`${at} (${block.type}) needs "${key}": ${what}`);
    if ((block.type === "image" || block.type === "audio") && isString(block.data) && !/^[A-Za-z0-9+/]*={0,2}$/.test(block.data)) {
      problems.push(`${at} (${block.type}) data is not base64`);
    }
    if (block.type === "resource" && isObject(block.resource)) {
      const resource = block.resource;
      if (!isString(resource.uri)) problems.push(`${at}.resource needs "uri": a string`);
      if (!isString(resource.text) && !isString(resource.blob)) problems.push(`${at}.resource needs "text" or "blob"`);
    }
  });
  return problems;
}

/**
 * The blocks a `format: content` answer's value stands for: a list of blocks, one block, or a
 * string (one text block). Throws, naming each problem, when they are not content blocks.
 *
 * @example contentOf("hello"); // [{ type: "text", text: "hello" }]
 */
export function contentOf(value: unknown): Block[] {
  const blocks = isString(value) ? [{ type: "text", text: value }] : isObject(value) ? [value] : value;
  const problems = contentBlockProblems(blocks);
  if (problems.length > 0) throw new Error(`[eval-simulate] the answer is not MCP content: ${problems.join("; ")}`);
  return blocks as Block[];
}
