/**
 * The starter `evals.yaml` `init` writes beside `fakes.yaml`: one case with a scripted agent that
 * passes `eval --dry` as written, before any handler is: it reads (a tool guessed read-only that
 * needs no arguments, when there is one) and expects the world unchanged.
 */

const yamlString = (value: string) => JSON.stringify(value);

/** A captured tool that needs no arguments (no `required` in its input schema). */
function takesNoArguments(tool: Record<string, unknown>): boolean {
  const schema = tool.inputSchema as { required?: unknown[] } | undefined;
  return !Array.isArray(schema?.required) || schema.required.length === 0;
}

/**
 * The starter evals file's text.
 *
 * @example starterEvals("memory", [readGraph], "./node_modules/eval-simulate", (tool) => false)
 */
export function starterEvals(
  id: string,
  tools: Array<Record<string, unknown>>,
  packagePath: string,
  writes: (tool: Record<string, unknown>) => boolean,
): string {
  const reader = tools.find((tool) => !writes(tool) && takesNoArguments(tool));
  const tool = reader === undefined ? undefined : `${id}/${String(reader.name)}`;
  const lines = [
    `# yaml-language-server: $schema=${packagePath}/eval-simulate.evals.schema.json`,
    "# A starting evals file, written by `eval-simulate init`: one case with a scripted agent, run",
    "# offline by `npx eval-simulate eval evals.yaml --dry`. Give it a model host, and add cases with",
    "# what each run must show (calls, state, milestones, never, golden, answer) as handlers are written.",
    "version: 1",
    "fakes: fakes.yaml",
    "cases:",
    "  - id: looks-without-changing",
    `    description: ${yamlString(`Looking at what ${id} holds changes nothing.`)}`,
    `    prompt: ${yamlString(`Look at what ${id} holds, without changing anything.`)}`,
    '    host: { type: script }      # a scripted agent: swap for { type: model, model: "anthropic:claude-sonnet-4-5" }',
    "    script:",
    ...(tool === undefined ? ["      calls: []"] : ["      calls:", `        - { tool: ${tool}, arguments: {} }`]),
    "      answer: I looked and changed nothing.",
    "    expect:",
    ...(tool === undefined ? ["      callCount: { max: 0 }"] : [`      calls: [{ tool: ${tool} }]`]),
    "      state: { readOnly: true }",
    "      answer: { contains: changed nothing }",
    "",
  ];
  return lines.join("\n");
}
