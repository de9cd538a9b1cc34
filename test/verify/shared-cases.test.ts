import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { answered } from "../../engine/entries/answers.js";
import { type AnswerSpec, decodeToon, readAnswer, readResult, type AnswerReading } from "../../engine/author/contract/index.js";
import { canonicalJson } from "../../engine/core/record/changed-entities.js";
import {
  changedEntities,
  loadManifests,
  loadState,
  piToolNames,
  readRecord,
  valueHash,
  type WriteMaps,
  worldHash,
  writeAttempts,
} from "../../engine/entries/verify.js";
import { ROOT } from "../support/examples.js";

/**
 * The cases python/tests/test_shared_cases.py runs through the Python verify, run here through
 * the engine: one committed expected result for both languages, so neither can drift.
 */
type Case = Record<string, any>;
const CASES: Record<string, Case[]> = JSON.parse(readFileSync(join(ROOT, "test/shared-cases/verify-cases.json"), "utf8"));

/** A message with the temporary folder, and the path in it, written `<dir>`. */
const withoutDir = (message: string, dir: string) => message.replace(new RegExp(`${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^ :]*`, "g"), "<dir>");

/** Runs a case: its expected value, or an error holding its expected message. */
function expectCase(c: Case, run: () => unknown, dir?: string): void {
  if (c.error === undefined) {
    expect(JSON.parse(JSON.stringify(run()))).toEqual(c.expected);
    return;
  }
  let message: string | undefined;
  try {
    run();
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message, "the case expects an error").toBeDefined();
  expect(dir ? withoutDir(message!, dir) : message).toContain(c.error);
}

/** A reading as the cases keep it: the error's shared part, and the issues sorted. */
function reading(r: AnswerReading): unknown {
  if (r.ok) return JSON.parse(JSON.stringify(r));
  const shared = /^the answer (is not JSON|does not match its schema): /.exec(r.error)?.[0];
  const issues = r.issues.map((i) => [i.path, i.keyword, i.message]).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return { ok: false, error: shared ?? r.error, issues };
}

const named = (section: string) => CASES[section].map((c) => [c.name ?? `${c.server}/${c.tool}`, c] as const);

describe("the shared verify cases, through the TypeScript engine", () => {
  it.each(named("canonical"))("canonical JSON and value hash: %s", (_name, c) => {
    const value = JSON.parse(c.json);
    expect(canonicalJson(value)).toBe(c.canonical);
    expect(valueHash(value)).toBe(c.hash);
  });

  it.each(named("worldHash"))("worldHash: %s", (_name, c) => {
    expect(worldHash(c.states)).toEqual(c.expected);
  });

  it.each(named("loadManifests"))("loadManifests: %s", (_name, c) => {
    const dir = mkdtempSync(join(tmpdir(), "shared-cases-"));
    for (const [path, content] of Object.entries(c.files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), typeof content === "string" ? content : JSON.stringify(content));
    }
    expectCase(c, () => loadManifests(dir), dir);
  });

  it.each(named("changedEntities"))("changedEntities: %s", (_name, c) => {
    expectCase(c, () => changedEntities(c.states, c.manifests as WriteMaps));
  });

  it.each(named("writeAttempts"))("writeAttempts: %s", (_name, c) => {
    expectCase(c, () => writeAttempts(c.calls, c.manifests as WriteMaps));
  });

  it.each(named("piToolNames"))("piToolNames: %s", (_name, c) => {
    expect(piToolNames(c.server, c.tool)).toEqual(c.expected);
  });

  it.each(named("readRecord"))("readRecord: %s", (_name, c) => {
    const file = join(mkdtempSync(join(tmpdir(), "shared-cases-")), "record.jsonl");
    writeFileSync(file, c.text);
    expectCase(c, () => readRecord(file, "session" in c ? { session: c.session } : {}), file);
  });

  it.each(named("loadState"))("loadState: %s", (_name, c) => {
    const dir = mkdtempSync(join(tmpdir(), "shared-cases-"));
    writeFileSync(join(dir, "state.json"), c.state);
    if (c.log !== undefined) writeFileSync(join(dir, "state.json.log"), c.log);
    expectCase(c, () => loadState(join(dir, "state.json")), dir);
  });

  it.each(named("answers"))("readAnswer / readResult: %s", (_name, c) => {
    const answer = c.answer as AnswerSpec;
    const read = () =>
      c.result
        ? readResult({ answer }, { ...("text" in c ? { text: c.text } : {}), ...("structured" in c ? { structured: c.structured } : {}) })
        : readAnswer(answer, c.text);
    if (c.error !== undefined) expect(read).toThrow(c.error);
    else expect(reading(read())).toEqual(c.expected);
  });

  it.each(named("answered"))("answered: %s", (_name, c) => {
    expectCase(c, () => answered(c.contract, c.calls));
  });

  it.each(named("toon"))("decodeToon: %s", (_name, c) => {
    expect(JSON.parse(JSON.stringify(decodeToon(c.text)))).toEqual(c.expected);
  });
});
