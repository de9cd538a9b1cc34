/**
 * Holding one recorded answer of the fake to what the real server was observed to answer, by
 * the rules of observe: formats and types always; a key every sample held only once the tool was
 * sampled REQUIRED_MIN_SAMPLES times; extra keys allowed; masked keys' values held to
 * `x-masked-values` after as many samples; canonical TOON; prefixes, suffixes and first lines.
 */
import { createSchemaCompiler, decodeToon, encodeToon, walkSchema, type JsonSchema } from "../../author/contract/index.js";
import { excerpt } from "./check-failure.js";
import { type ObservedAnswer, type ObservedTool, REQUIRED_MIN_SAMPLES } from "./observed-format.js";

/** A key observe keeps by name: a plain word starting with a lowercase letter. */
const PLAIN_KEY = "^[a-z][A-Za-z0-9_]*$";

/** A recorded successful answer: the result's text and structured content. */
export interface AnswerParts {
  text: string;
  structured?: unknown;
}

/**
 * The observed schema turned into the one a fake's answer must meet: no `required` before
 * enough samples, no closed objects (an extra key is allowed), and a masked key's value held to
 * `x-masked-values` once enough samples bind it. A plain key the schema does not list stays
 * free: observe would have listed it had a sample held it, so no sample says what it holds.
 */
export function bindingSchema(schema: JsonSchema, sampled: number): JsonSchema {
  const copy = structuredClone(schema);
  const enough = sampled >= REQUIRED_MIN_SAMPLES;
  walkSchema(copy, (node) => {
    if (!enough) delete node.required;
    if (node.additionalProperties === false) delete node.additionalProperties;
    const masked = node["x-masked-values"];
    delete node["x-masked-values"];
    if (enough && masked !== undefined) {
      node.patternProperties = { ...(node.patternProperties as Record<string, unknown> | undefined), [PLAIN_KEY]: true };
      node.additionalProperties = masked;
    }
  });
  return copy;
}

function startsWithOne(text: string, candidates: string[]): boolean {
  return candidates.some((candidate) => text.startsWith(candidate));
}

function listed(one: string | undefined, many: string[] | undefined): string[] {
  return [...(one === undefined ? [] : [one]), ...(many ?? [])];
}

function shown(list: string[]): string {
  return list.map((item) => JSON.stringify(item)).join(" or ");
}

/**
 * How the text beside structured content must be written, as the real server wrote it: compact
 * JSON, JSON indented by 2, or text whose first line starts as observed.
 */
function structuredTextProblems(answer: ObservedAnswer, text: string): string[] {
  if (answer.text === undefined) return [];
  if (answer.text === "text") {
    const prefixes = listed(answer.prefix, answer.prefixes);
    const first = text.split("\n")[0];
    return prefixes.length > 0 && !startsWithOne(first, prefixes)
      ? [`the text beside its structured content starts ${excerpt(first)}, where the real server's started ${shown(prefixes)}`]
      : [];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [`the text beside its structured content is not JSON, where the real server's was (${answer.text}): ${excerpt(text)}`];
  }
  const written = answer.text === "json" ? JSON.stringify(parsed) : JSON.stringify(parsed, null, 2);
  return written === text
    ? []
    : [
        `the text beside its structured content is not written as ${answer.text === "json" ? "compact JSON" : "JSON indented by 2"}, as the real server's was: ${excerpt(text)}`,
      ];
}

/** The value an answer holds, read as the real server's answers were; or why it cannot be. */
function readValue(answer: ObservedAnswer, parts: AnswerParts): { value?: unknown; problems: string[] } {
  const { text } = parts;
  switch (answer.format) {
    case "structured":
      return parts.structured === undefined
        ? { problems: ["it has no structured content, where the real server answered structured content"] }
        : { value: parts.structured, problems: structuredTextProblems(answer, text) };
    case "json":
      try {
        return { value: JSON.parse(text), problems: [] };
      } catch {
        return { problems: [`it is not JSON, as the real server's answers were: ${excerpt(text)}`] };
      }
    case "toon": {
      const decoded = decodeToon(text);
      if (!decoded.ok) return { problems: [`it is not TOON, as the real server's answers were: ${decoded.error}`] };
      const canonical = encodeToon(decoded.value);
      const problems =
        answer.canonical === true && canonical !== text
          ? [`its TOON is not written as the TOON encoder writes it, as every observed answer was: expected ${excerpt(canonical)}, got ${excerpt(text)}`]
          : [];
      return { value: decoded.value, problems };
    }
    case "prefixed_json": {
      const prefixes = listed(answer.prefix, answer.prefixes);
      const suffixes = listed(answer.suffix, answer.suffixes);
      const prefix = prefixes.find((p) => text.startsWith(p));
      if (prefixes.length > 0 && prefix === undefined)
        return { problems: [`it starts ${excerpt(text.slice(0, 60))}, where the real server's answers started ${shown(prefixes)}`] };
      const rest = text.slice((prefix ?? "").length);
      const suffix = suffixes.length === 0 ? "" : suffixes.find((s) => rest.endsWith(s));
      if (suffix === undefined) return { problems: [`it ends ${excerpt(text.slice(-60))}, where the real server's answers ended ${shown(suffixes)}`] };
      try {
        return { value: JSON.parse(rest.slice(0, rest.length - suffix.length)), problems: [] };
      } catch {
        return { problems: [`the text between its prefix and suffix is not JSON: ${excerpt(text)}`] };
      }
    }
    case "text": {
      const prefixes = listed(answer.prefix, answer.prefixes);
      const first = text.split("\n")[0];
      return prefixes.length > 0 && !startsWithOne(first, prefixes)
        ? { problems: [`its first line ${excerpt(first)} does not start as the real server's did (${shown(prefixes)})`] }
        : { problems: [] };
    }
    default:
      return { problems: [] };
  }
}

/**
 * Why a recorded answer does not read like the real server's, by the observed-answer rules;
 * empty when it does. A `mixed` observation is only counted, so nothing is held to it.
 *
 * @example
 * observedAnswerProblems({ sampled: 4, answer: { format: "toon", canonical: true, schema } }, { text });
 */
export function observedAnswerProblems(observed: ObservedTool, parts: AnswerParts): string[] {
  const { answer, sampled } = observed;
  if (answer.format === "mixed") return [];
  const { value, problems } = readValue(answer, parts);
  if (problems.length > 0 || answer.schema === undefined || answer.format === "text") return problems;
  const compiled = createSchemaCompiler().compile(bindingSchema(answer.schema as JsonSchema, sampled));
  if (compiled.validate(value)) return [];
  return compiled.issues().map((issue) => `${issue.path === "" ? "the answer" : issue.path} ${issue.message}, unlike the real server's answers`);
}
