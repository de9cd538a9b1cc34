import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoadedFakes, loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { type EvalCase, judgeRun } from "../../engine/entries/judge.js";
import type { History } from "../../engine/judge/evals/history.js";
import { checkEvals } from "../../engine/judge/evals/load-evals.js";
import { judgeHistory } from "../../engine/judge/evals/world-predicates.js";

// The manifest's `functions:` are callable from the evals file's JSONata, as from its handlers.
const dir = mkdtempSync(join(tmpdir(), "eval-simulate-evals-functions-"));
let fakes: LoadedFakes;

const MANIFEST = [
  "version: 1",
  "functions:",
  `  open: "function($notes) { $notes[open = true] }"`,
  // It reads the calling expression's own bindings ($final here), as a handler's function reads $state.
  `  openIn: "function($fake) { $count($open($lookup($final, $fake).notes)) }"`,
  "servers:",
  "  notes:",
  "    captured: tools.json",
  "    entities:",
  "      notes: { schema: { type: array }, default: [] }",
  "    tools:",
  "      list-notes:",
  "        reads: [notes]",
  "        answer: { format: json, schema: { type: object, properties: { notes: { type: array } } } }",
  `        jsonata: '{ "notes": $open($state.notes).id }'`,
  "scenarios:",
  "  some:",
  "    default: true",
  "    state:",
  "      notes:",
  "        notes: [{ id: n1, open: true }, { id: n2, open: false }]",
  "",
].join("\n");

const world = (open: boolean[]) => ({ notes: { notes: open.map((o, i) => ({ id: `n${i + 1}`, open: o })) } });

beforeAll(async () => {
  copyFileSync(new URL("../fixtures/valid/tools.json", import.meta.url), join(dir, "tools.json"));
  writeFileSync(join(dir, "fakes.yaml"), MANIFEST);
  fakes = await loadFakes(join(dir, "fakes.yaml"));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the manifest's shared functions in evals expressions", () => {
  it("are bound in state.assert, answer.jsonata and transcript checks, reading each expression's bindings", async () => {
    const c: EvalCase = {
      id: "functions",
      expect: {
        state: { assert: [{ name: "one open", jsonata: "$count($open($final.notes.notes)) = 1 and $openIn('notes') = 1" }] },
        answer: { jsonata: "$count($open($final.notes.notes)) = 1" },
        transcript: [{ name: "open after", jsonata: "$openIn('notes') = 1 and $count($transcript) = 2" }],
      },
    };
    const transcript = [
      { turn: 1, role: "user", content: "Open notes?" },
      { turn: 1, role: "assistant", content: "One." },
    ];
    const verdict = await judgeRun({
      fakes,
      case: c,
      run: { initial: world([true, false]), final: world([true, false]), calls: [], answer: "One.", transcript },
    });
    expect(verdict.results.map((r) => [r.assertion, r.status, r.message])).toEqual([
      ["state.assert[0] one open", "passed", "true"],
      ["answer.jsonata", "passed", "the answer satisfies the expression"],
      ["transcript[0] open after", "passed", "the transcript satisfies it"],
    ]);
  });

  it("are bound in milestones and never, at each commit's world", async () => {
    const call = { number: 1, server: "notes", tool: "close-note", args: {}, failed: false, line: {} };
    const history = {
      ok: true,
      initial: world([true, true]),
      commits: [{ number: 1, call, fake: "notes", entities: ["notes"], changes: {}, world: world([true, false]) }],
    } as unknown as History;
    const results = await judgeHistory(
      {
        milestones: [{ name: "one left", jsonata: "$count($open($world.notes.notes)) = 1" }],
        never: [{ name: "none left", jsonata: "$count($open($world.notes.notes)) = 0" }],
      },
      history,
      fakes.manifest.functions,
    );
    expect(results.map((r) => [r.assertion, r.status])).toEqual([
      ["milestones[0] one left", "passed"],
      ["never[0] none left", "passed"],
    ]);
  });

  it("run on the judge's bounded runtime: a runaway function fails its assertion, it does not hang the judge", async () => {
    const { evaluateBounded } = await import("../../engine/judge/evals/expressions.js");
    const out = await evaluateBounded("$loop(1)", undefined, {}, { loop: "function($n) { ($f := function($m) { $f($m + 1) + 1 }; $f($n)) }" });
    expect(out).toMatchObject({ ok: false, message: expect.stringMatching(/nested deeper|ran past/) });
    // A binding of the same name wins over a function's.
    expect(await evaluateBounded("$final", undefined, { final: 1 }, { final: "function() { 2 }" })).toMatchObject({ ok: true, value: 1 });
  });

  it("leave validate quiet about an evals file that calls them", async () => {
    const file = join(dir, "evals.yaml");
    writeFileSync(
      file,
      [
        "version: 1",
        "fakes: fakes.yaml",
        "cases:",
        "  - id: a",
        "    prompt: Close a note",
        "    expect:",
        "      state: { assert: [{ name: one, jsonata: \"$openIn('notes') = 1\" }] }",
        "      milestones: [{ name: m, jsonata: '$count($open($world.notes.notes)) = 1' }]",
        "",
      ].join("\n"),
    );
    const checked = await checkEvals(file);
    expect(checked.diagnostics).toEqual([]);
  });
});
