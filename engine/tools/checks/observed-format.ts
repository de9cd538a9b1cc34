/**
 * observed.json: what the real MCP server answered, summarised per tool, for the check "answers
 * every observed tool as the real server did". The format is documented in observed-format.md;
 * this TypeBox definition is its one source, and `parseObserved` checks a file against it.
 */
import { readFileSync } from "node:fs";
import { type Static, Type } from "typebox";
import { createSchemaCompiler } from "../../author/contract/index.js";
import { type JsonSchema, walkSchema } from "../../author/contract/index.js";

/** A tool must have been sampled this many times before its required keys and masked values bind. */
export const REQUIRED_MIN_SAMPLES = 3;

const SchemaValue = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Boolean()]);

/** How the real server answered one tool. */
export const ObservedAnswerSchema = Type.Object(
  {
    format: Type.Enum(["json", "toon", "prefixed_json", "text", "structured", "mixed"], {
      description:
        "How the answers were written; structured: the structuredContent of a tool with an outputSchema; mixed: more than one format (only counted).",
    }),
    schema: Type.Optional(SchemaValue),
    canonical: Type.Optional(Type.Boolean({ description: "toon only: every answer was written exactly as the TOON encoder writes its value." })),
    prefix: Type.Optional(Type.String({ description: "prefixed_json: the text before the JSON; text: how the first line starts." })),
    prefixes: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
    suffix: Type.Optional(Type.String({ description: "prefixed_json: the text after the JSON." })),
    suffixes: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
    text: Type.Optional(
      Type.Enum(["json", "json-pretty", "text"], {
        description:
          "structured only: how the text beside the structured content was written: compact JSON, JSON indented by 2, or neither (text; its first lines in prefixes).",
      }),
    ),
  },
  { additionalProperties: false },
);

/** One observed tool: how many successful answers were sampled, and how they read. */
export const ObservedToolSchema = Type.Object({ sampled: Type.Integer({ minimum: 1 }), answer: ObservedAnswerSchema }, { additionalProperties: false });

/** The whole file. */
export const ObservedFileSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    version: Type.Literal(1),
    server: Type.Optional(Type.String({ description: "The server observed (informative)." })),
    observedAt: Type.Optional(Type.String({ description: "When it was observed (informative)." })),
    tools: Type.Record(Type.String(), ObservedToolSchema),
  },
  { additionalProperties: false },
);

export type ObservedAnswer = Static<typeof ObservedAnswerSchema>;
export type ObservedTool = Static<typeof ObservedToolSchema>;
export type ObservedFile = Static<typeof ObservedFileSchema>;

const HELP = "see engine/tools/checks/observed-format.md (eval-simulate's observed.json format)";
let validator: ReturnType<ReturnType<typeof createSchemaCompiler>["compile"]> | undefined;

/** What the schema cannot say: which keys each format takes. */
function formatProblems(file: ObservedFile): string[] {
  const problems: string[] = [];
  for (const [name, { answer }] of Object.entries(file.tools)) {
    const at = `tools.${name}.answer`;
    const affixes = answer.format === "prefixed_json" || answer.format === "text" || (answer.format === "structured" && answer.text === "text");
    if (answer.format !== "structured" && answer.text !== undefined) problems.push(`${at}: text belongs to structured`);
    if (!affixes && (answer.prefix !== undefined || answer.prefixes !== undefined))
      problems.push(`${at}: prefix and prefixes belong to prefixed_json, text and structured with text: text`);
    if (answer.format !== "prefixed_json" && (answer.suffix !== undefined || answer.suffixes !== undefined))
      problems.push(`${at}: suffix and suffixes belong to prefixed_json`);
    if (answer.format !== "toon" && answer.canonical !== undefined) problems.push(`${at}: canonical belongs to toon`);
    if ((answer.format === "text" || answer.format === "mixed") && answer.schema !== undefined) problems.push(`${at}: a ${answer.format} answer has no schema`);
    if (answer.schema !== undefined) {
      walkSchema(answer.schema as JsonSchema, (node, pointer) => {
        const masked = node["x-masked-values"];
        if (masked !== undefined && typeof masked !== "boolean" && (typeof masked !== "object" || masked === null || Array.isArray(masked))) {
          problems.push(`${at}.schema${pointer.replace(/\//g, ".")}: x-masked-values must be a JSON Schema`);
        }
      });
    }
  }
  return problems;
}

/**
 * Checks a parsed observed.json and returns it typed; throws, naming every problem, when it is
 * not in the format.
 *
 * @example const observed = parseObserved(JSON.parse(text), "mcp/crm/observed.json");
 */
export function parseObserved(value: unknown, source: string): ObservedFile {
  validator ??= createSchemaCompiler().compile(ObservedFileSchema as unknown as Record<string, unknown>);
  if (!validator.validate(value)) {
    const issues = validator.issues().map((issue) => `${issue.path || "(root)"} ${issue.message}`);
    throw new Error(`[eval-simulate] ${source} is not an observed.json: ${issues.join("; ")}; ${HELP}`);
  }
  const problems = formatProblems(value as ObservedFile);
  if (problems.length > 0) throw new Error(`[eval-simulate] ${source} is not an observed.json: ${problems.join("; ")}; ${HELP}`);
  return value as ObservedFile;
}

/**
 * Reads and checks an observed.json file.
 *
 * @example const observed = loadObserved("fakes/mcp/crm/observed.json");
 */
export function loadObserved(file: string): ObservedFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`[eval-simulate] cannot read the observations ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`[eval-simulate] ${file} is not JSON: ${(error as Error).message}`);
  }
  return parseObserved(parsed, file);
}
