// The command host points its agent's model at the trial's model endpoints only when the case
// asks (`models:`): the base URLs in the provider SDKs' variables and placeholders, dummy keys,
// each trial's at its own secret session address.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runEvals } from "../../engine/eval/runner/index.js";
import { ROOT } from "../support/examples.js";

const PRINT_ENV =
  "console.log([process.env.OPENAI_BASE_URL, process.env.OPENAI_API_KEY, process.env.ANTHROPIC_BASE_URL, process.env.ANTHROPIC_API_KEY].join(' '))";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "eval-simulate-command-models-"));
  for (const file of ["fakes.yaml", "mcp"]) cpSync(join(ROOT, "examples/offline-agent", file), join(dir, file), { recursive: true });
  const command = (args: string[]) => JSON.stringify({ type: "command", command: ["node", "-e", ...args] });
  writeFileSync(
    join(dir, "evals.yaml"),
    `version: 1
fakes: fakes.yaml
cases:
  - { id: asks, iterations: 2, accuracyThreshold: 1, host: ${command([PRINT_ENV])}, models: { script: [{ text: unused }] }, expect: {} }
  - { id: placeholders, host: ${command(["console.log(process.argv.slice(1).join(' '))", "{{openaiBaseUrl}}", "{{anthropicBaseUrl}}"])}, models: {}, expect: {} }
  - { id: does-not-ask, host: ${command([PRINT_ENV])}, expect: {} }
`,
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("sets the model variables for a case with models:, each trial its own, and leaves them alone for the others", async () => {
  const result = await runEvals({ evals: join(dir, "evals.yaml"), env: {} });
  const answers = (id: string) => result.lines.filter((line) => line.case === id).map((line) => line.answer!);
  const asked = answers("asks");
  expect(asked).toHaveLength(2);
  for (const answer of asked)
    expect(answer).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/s\/[0-9a-f]+~[\w-]+\/models\/openai\/v1 eval-simulate-no-key http:\/\/127\.0\.0\.1:\d+\/s\/[0-9a-f]+~[\w-]+\/models\/anthropic eval-simulate-no-key$/,
    );
  expect(asked[0]).not.toBe(asked[1]);
  expect(answers("placeholders")[0]).toMatch(/^http:\S+\/models\/openai\/v1 http:\S+\/models\/anthropic$/);
  const inherited = [process.env.OPENAI_BASE_URL, process.env.OPENAI_API_KEY, process.env.ANTHROPIC_BASE_URL, process.env.ANTHROPIC_API_KEY].join(" ").trim();
  expect(answers("does-not-ask")[0] ?? "").toBe(inherited);
});
