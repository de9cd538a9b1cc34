import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServe } from "../support/cli-process.js";
import { connect, textOf } from "../support/services.js";

const dir = mkdtempSync(join(tmpdir(), "eval-simulate-serve-patterns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("serve with a catastrophic pattern in a captured schema", () => {
  it("refuses an argument that would backtrack for minutes at once, and keeps answering", async () => {
    writeFileSync(
      join(dir, "tools.json"),
      JSON.stringify({
        tools: [{ name: "echo", inputSchema: { type: "object", properties: { word: { type: "string", pattern: "^(a+)+$" } }, required: ["word"] } }],
      }),
    );
    writeFileSync(
      join(dir, "fakes.yaml"),
      `version: 1
servers:
  words:
    captured: tools.json
    tools:
      echo: { answer: { format: text }, jsonata: '$args.word' }
`,
    );
    const serve = await startServe([join(dir, "fakes.yaml")]);
    try {
      const client = await connect(`http://127.0.0.1:${serve.port}/words/mcp`);
      const refused = await client.callTool({ name: "echo", arguments: { word: `${"a".repeat(40_000)}!` } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/must match pattern/);
      const answered = await client.callTool({ name: "echo", arguments: { word: "aaa" } });
      expect(textOf(answered)).toBe("aaa");
      expect((await fetch(`http://127.0.0.1:${serve.port}/health`)).status).toBe(200);
      await client.close();
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });
});
