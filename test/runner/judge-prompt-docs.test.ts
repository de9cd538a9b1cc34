import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JUDGE_PROMPT_VERSION, JUDGE_SYSTEM, judgePrompt, retryNote } from "../../engine/eval/rubrics/judge-prompt.js";
import { ROOT } from "../support/examples.js";

const docs = readFileSync(join(ROOT, "docs/rubrics.md"), "utf8");

describe("the judge prompt as docs/rubrics.md prints it", () => {
  it("prints the system text word for word, under the version the cache keys use", () => {
    expect(docs).toContain(`\`\`\`text\n${JUDGE_SYSTEM}\n\`\`\``);
    expect(docs).toContain(`### The judge prompt (version \`${JUDGE_PROMPT_VERSION}\`)`);
  });

  it("lays out the request as documented: each part between its tags, left out when there is none", () => {
    const full = judgePrompt({ case: "c", name: "n", rubric: "R", task: "T", answer: "A", transcript: "x", context: 1 });
    expect(full.replace(/(<[a-z]+>)\n[^\n]*\n/g, "$1\n…\n")).toBe(
      ["criterion", "task", "answer", "transcript", "context"].map((tag) => `<${tag}>\n…\n</${tag}>`).join("\n\n"),
    );
    expect(judgePrompt({ case: "c", name: "n", rubric: "R", answer: "A" })).toBe("<criterion>\nR\n</criterion>\n\n<answer>\nA\n</answer>");
    expect(docs.replace(/\s+/g, " ")).toContain(retryNote("<why>").trim().replace(/\s+/g, " "));
  });
});
