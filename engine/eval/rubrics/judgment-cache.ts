/**
 * Judgments cached beside the evals file (`evals.yaml` → `evals.judgments.json`), committed by
 * users: re-judging the same run is free and gives the same verdict, and `--dry` or keyless runs
 * judge from it. An entry is keyed by a hash of everything the judge was shown (criterion, task,
 * answer, transcript, context), the judge model and the prompt's version, so a change to any of
 * them asks again instead of reusing a judgment of something else.
 */
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readRegularFile } from "../../core/files/index.js";
import { valueHash } from "../../core/record/index.js";
import type { RubricRequest } from "../../judge/evals/index.js";
import { JUDGE_PROMPT_VERSION, type Judgment, readJudgment } from "./judge-prompt.js";

/** One cached judgment, with what a reader of the file needs to recognise it. */
export interface CachedJudgment extends Judgment {
  case: string;
  rubric: string;
  model: string;
  promptVersion: string;
  /** Free text kept as written: who made the entry, if not a judge model run by eval-simulate. */
  note?: string;
}

/**
 * The cache file of an evals file: its name without `.yaml`/`.yml`/`.json`, then `.judgments.json`.
 *
 * @example judgmentsFile("examples/crm/evals.yaml") // "examples/crm/evals.judgments.json"
 */
export function judgmentsFile(evalsFile: string): string {
  return join(dirname(evalsFile), `${basename(evalsFile).replace(/\.(ya?ml|json)$/i, "")}.judgments.json`);
}

/**
 * The key of a judgment: sha256 of the canonical JSON of what the judge is shown, its model and
 * the prompt's version (the rubric's name, threshold and weight are not shown, so not in it).
 *
 * @example judgmentKey({ case: "c", name: "n", rubric: "Names the deal.", answer: "Acme is won." }, "openai:gpt-4.1")
 */
export function judgmentKey(request: RubricRequest, model: string, promptVersion: string = JUDGE_PROMPT_VERSION): string {
  const { rubric, task, answer, transcript, context } = request;
  return valueHash({ promptVersion, model, rubric, task, answer, transcript, context });
}

/** The judgments of one evals file, read once and written back whole after each new one. */
export class JudgmentCache {
  private readonly entries = new Map<string, CachedJudgment>();

  /**
   * Reads the file (none yet is an empty cache). Throws naming the file when it is not a
   * judgments file, rather than writing over it later.
   */
  constructor(readonly file: string) {
    if (!existsSync(file)) return;
    const read = readRegularFile(file);
    if (!read.ok) throw new Error(`[eval-simulate] cannot read the judgments file ${file}: it ${read.reason}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(read.text);
    } catch (error) {
      throw new Error(`[eval-simulate] the judgments file ${file} is not JSON (${(error as Error).message}): fix it, or delete it to judge again`);
    }
    const judgments = (parsed as { judgments?: unknown })?.judgments;
    if (!judgments || typeof judgments !== "object" || Array.isArray(judgments))
      throw new Error(`[eval-simulate] the judgments file ${file} has no "judgments" object: fix it, or delete it to judge again`);
    for (const [key, entry] of Object.entries(judgments)) {
      const e = entry as Partial<CachedJudgment>;
      // An entry that does not read as a judgment is asked again, as if it were not there.
      if (readJudgment(e).ok && typeof e.model === "string") this.entries.set(key, e as CachedJudgment);
    }
  }

  get(key: string): CachedJudgment | undefined {
    return this.entries.get(key);
  }

  /** Records a judgment and writes the file (keys sorted, so a commit's diff shows only what changed). */
  set(key: string, entry: CachedJudgment): void {
    this.entries.set(key, entry);
    const judgments = Object.fromEntries([...this.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const text = `${JSON.stringify({ version: 1, judgments }, null, 2)}\n`;
    // Whole or not at all: a reader (or a crash) never sees half a file.
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, text);
    renameSync(temporary, this.file);
  }

  get size(): number {
    return this.entries.size;
  }
}
