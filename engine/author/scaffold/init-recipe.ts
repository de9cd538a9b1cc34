/**
 * A starting Recipe from a server's captured tools: `fakes.yaml` (with the schema modeline, every
 * tool served, `reads`/`writes` guessed, each handled by `$notImplemented` until written), the
 * capture itself, a test file keeping the checks every Recipe keeps, and a starter `evals.yaml`.
 */
import { starterEvals } from "./starter-evals.js";

/** One file of the scaffold, relative to the Recipe folder. */
export interface ScaffoldFile {
  path: string;
  text: string;
}

/** What a scaffold is made from. */
export interface ScaffoldInput {
  /** The fake's id (the server's name in the manifest). */
  id: string;
  /** The capture: `tools/list`'s tools, and what else the server said about itself. */
  capture: { tools: Array<Record<string, unknown>> };
  /**
   * The installed eval-simulate package's folder, relative to the Recipe folder (the modelines
   * name its schemas from there, as yaml-language-server resolves them: relative to the file).
   */
  packagePath?: string;
  /** Where the capture came from (`init --mcp`/`--mcp-url`), so `eval-simulate capture <id>` can read it again. */
  source?: { command: string } | { url: string };
}

const WRITE_VERBS =
  /^(create|add|update|delete|remove|set|send|post|put|patch|write|edit|insert|upsert|move|rename|close|reopen|archive|assign|unassign|merge|publish|cancel|approve|reject|submit|upload|mark|toggle|enable|disable|reset|clear|import|save|append|reply|forward|schedule|book|transfer|pay|refund|invite|link|unlink|tag|untag|comment|request|start|stop|complete|finish|claim|register|apply|accept|decline|revoke|grant|restore|sync|store|push|commit)/;
const READ_VERBS =
  /^(get|list|search|read|find|fetch|query|describe|show|view|count|lookup|check|browse|export|download|preview|summari[sz]e|resolve|validate|inspect|open)/;

/** Whether a name starts with one of the verbs as a word: `send-email`, `send_email`, `sendEmail`, `SendEmail`; not `settings`. */
function startsWithVerb(name: string, verbs: RegExp): boolean {
  const verb = verbs.exec(name.toLowerCase())?.[1];
  if (verb === undefined) return false;
  const next = name[verb.length];
  return next === undefined || /[-_.0-9A-Z]/.test(next);
}

/** Whether a tool probably changes the server's state, and why we think so. */
export function guessWrites(tool: Record<string, unknown>): { writes: boolean; why: string } {
  const annotations = (tool.annotations ?? {}) as Record<string, unknown>;
  const name = String(tool.name);
  if (annotations.readOnlyHint === true) return { writes: false, why: "readOnlyHint" };
  if (annotations.destructiveHint === true) return { writes: true, why: "destructiveHint" };
  if (startsWithVerb(name, WRITE_VERBS)) return { writes: true, why: "its name" };
  if (startsWithVerb(name, READ_VERBS)) return { writes: false, why: "its name" };
  if (annotations.readOnlyHint === false) return { writes: true, why: "readOnlyHint: false" };
  return { writes: false, why: "a guess: nothing says it writes" };
}

const yamlString = (value: string) => JSON.stringify(value);

/**
 * The files of a starting Recipe: `fakes.yaml`, `mcp/<id>/tools.json`, `tests/fakes.test.js` and
 * `evals.yaml` (the package.json is `recipePackage`'s: it completes one already there).
 *
 * @example for (const file of scaffoldRecipe({ id: "memory", capture })) writeFileSync(join(dir, file.path), file.text);
 */
export function scaffoldRecipe(input: ScaffoldInput): ScaffoldFile[] {
  const { id, capture } = input;
  const packagePath = input.packagePath ?? "./node_modules/eval-simulate";
  const entity = "records";
  const lines = [
    `# yaml-language-server: $schema=${packagePath}/eval-simulate.schema.json`,
    `# A starting Recipe, written by \`eval-simulate init\`. Every captured tool is served and answers`,
    `# "not implemented" until its handler is written: replace each \`$notImplemented\` with a JSONata`,
    `# block (let / fail / set / return) or a TypeScript handler, model the entities the tools share,`,
    `# and check each guessed \`reads\`/\`writes\` (the entity map the judge reads).`,
    "version: 1",
    "servers:",
    `  ${id}:`,
    `    captured: mcp/${id}/tools.json`,
    ...(input.source === undefined
      ? []
      : ["    capture:", "command" in input.source ? `      command: ${yamlString(input.source.command)}` : `      url: ${yamlString(input.source.url)}`]),
    "    entities:",
    `      ${entity}:`,
    `        description: ${yamlString(`Everything ${id} keeps, until the tools' real entities are modelled.`)}`,
    "        schema: { type: array, items: { type: object } }",
    "        default: []",
    "    tools:",
  ];
  for (const tool of capture.tools) {
    const name = String(tool.name);
    const { writes, why } = guessWrites(tool);
    lines.push(`      ${/^[A-Za-z0-9_-]+$/.test(name) ? name : yamlString(name)}:`);
    lines.push(`        ${writes ? "writes" : "reads"}: [${entity}]   # guessed from ${why}`);
    if (tool.outputSchema === undefined) lines.push("        answer: { format: text }");
    lines.push(`        jsonata: ${yamlString(`$notImplemented(${JSON.stringify(name)})`)}`);
  }
  lines.push(
    "scenarios:",
    "  empty:",
    "    default: true",
    `    description: ${yamlString(`${id} with nothing in it.`)}`,
    "    state:",
    `      ${id}:`,
    `        ${entity}: []`,
    "",
  );
  const test = [
    "// The checks every Recipe keeps about its fakes (node --test tests/). Add this Recipe's own",
    "// behaviours beside them as its handlers are written.",
    'import { test } from "node:test";',
    'import { fileURLToPath } from "node:url";',
    'import { checkRecipeFakes } from "eval-simulate/checks";',
    "",
    'checkRecipeFakes({ test, manifest: fileURLToPath(new URL("../fakes.yaml", import.meta.url)) });',
    "",
  ];
  return [
    { path: "fakes.yaml", text: lines.join("\n") },
    { path: `mcp/${id}/tools.json`, text: `${JSON.stringify(capture, null, 2)}\n` },
    { path: "tests/fakes.test.js", text: test.join("\n") },
    { path: "evals.yaml", text: starterEvals(id, capture.tools, packagePath, (tool) => guessWrites(tool).writes) },
  ];
}
