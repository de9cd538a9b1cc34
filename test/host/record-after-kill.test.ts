import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadState, readRecord } from "../../engine/entries/verify.js";
import { startServe } from "../support/cli-process.js";
import { connect } from "../support/services.js";

/** An MCP fake and an API fake whose writes keep only an id in state, while each call's record line carries a large memo. */
function ledgerManifest(): string {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-kill-"));
  writeFileSync(
    join(dir, "tools.json"),
    JSON.stringify({
      tools: [
        {
          name: "append",
          inputSchema: { type: "object", properties: { id: { type: "string" }, memo: { type: "string" } }, required: ["id"], additionalProperties: false },
        },
      ],
    }),
  );
  writeFileSync(
    join(dir, "fakes.yaml"),
    [
      "version: 1",
      "servers:",
      "  ledger:",
      "    captured: tools.json",
      "    entities:",
      "      entries: { schema: { type: array, items: { type: string } }, default: [] }",
      "    tools:",
      "      append:",
      "        writes: [entries]",
      "        answer: { format: json }",
      "        jsonata:",
      "          set:",
      "            entries: '$append($state.entries, [$args.id])'",
      '          return: \'{ "id": $args.id, "password": "p-" & $args.id }\'',
      "apis:",
      "  books:",
      "    openapi: openapi.yaml",
      "    entities:",
      "      entries: { schema: { type: array, items: { type: string } }, default: [] }",
      "    operations:",
      "      append:",
      "        writes: [entries]",
      "        jsonata:",
      "          set:",
      "            entries: '$append($state.entries, [$request.body.id])'",
      '          return: \'{ "status": 201, "body": { "id": $request.body.id } }\'',
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "openapi.yaml"),
    JSON.stringify({
      openapi: "3.1.0",
      info: { title: "Books", version: "1" },
      paths: {
        "/entries": {
          post: {
            operationId: "append",
            requestBody: {
              required: true,
              content: {
                "application/json": { schema: { type: "object", required: ["id"], properties: { id: { type: "string" }, memo: { type: "string" } } } },
              },
            },
            responses: { "201": { description: "Appended", content: { "application/json": { schema: { type: "object" } } } } },
          },
        },
      },
    }),
  );
  return join(dir, "fakes.yaml");
}

/** The ids of the record's answered appends, by fake, read as the checks read a record. */
function recordedIds(file: string): Record<string, Set<string>> {
  const ids = { ledger: new Set<string>(), books: new Set<string>() };
  for (const call of readRecord(file) as Array<Record<string, any>>) {
    if (call.tool === "append" && call.result && !call.result.isError) ids.ledger.add(call.args.id);
    if (call.api === "books" && call.response?.status === 201) ids.books.add(call.request.body.id);
  }
  return ids;
}

describe("the record after a kill -9", () => {
  it("holds a line for every write the state file holds, MCP and API, whenever the process is killed", async () => {
    const manifest = ledgerManifest();
    // A large memo makes each record line slow to write, so kills land in every step of a call.
    const memo = `note ${"x".repeat(200_000)} password=hunter2`;
    for (let round = 0; round < 5; round++) {
      const dir = mkdtempSync(join(tmpdir(), "eval-simulate-kill-"));
      const files = { state: join(dir, "state.json"), record: join(dir, "calls.jsonl") };
      const serve = await startServe([manifest, "--state-file", files.state, "--record", files.record]);
      const url = `http://127.0.0.1:${serve.port}/ledger/mcp`;
      const clients = await Promise.all([1, 2, 3, 4].map(() => connect(url)));
      let answered = 0;
      let firstAnswer!: () => void;
      const first = new Promise<void>((resolve) => (firstAnswer = resolve));
      // Each stream writes until the process is gone (bounded, should the kill never come).
      const stream = async (write: (i: number) => Promise<unknown>) => {
        for (let i = 0; i < 500; i++) {
          try {
            await write(i);
          } catch {
            return;
          }
          answered++;
          firstAnswer();
        }
      };
      const books = `http://127.0.0.1:${serve.port}/books/entries`;
      const streams = [
        ...clients.map((client, c) => stream((i) => client.callTool({ name: "append", arguments: { id: `r${round}-c${c}-${i}`, memo } }))),
        ...[0, 1].map((c) =>
          stream(async (i) => {
            const response = await fetch(books, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ id: `r${round}-a${c}-${i}`, memo }),
            });
            if (response.status !== 201) throw new Error(`status ${response.status}`);
          }),
        ),
      ];
      await first;
      const delay = Math.floor(Math.random() * 150);
      await new Promise((resolve) => setTimeout(resolve, delay));
      serve.child.kill("SIGKILL");
      await serve.exited;
      await Promise.all(streams);
      await Promise.allSettled(clients.map((client) => client.close()));

      // What a reader gets after the kill: the snapshot with the log of every acknowledged commit applied.
      const state = loadState(files.state) as Record<"ledger" | "books", { entries: string[] }>;
      expect(state.ledger.entries.length + state.books.entries.length, `round ${round}: ${answered} answered`).toBeGreaterThanOrEqual(answered);
      const recorded = recordedIds(files.record);
      for (const fake of ["ledger", "books"] as const) {
        const missing = state[fake].entries.filter((id) => !recorded[fake].has(id));
        expect(missing, `${fake}: round ${round}, killed ${delay} ms after the first answer (${answered} answered)`).toEqual([]);
      }
      expect(state.ledger.entries.length + state.books.entries.length).toBeGreaterThan(0);
      expect(readFileSync(files.record, "utf8")).not.toContain("hunter2");
    }
  }, 120_000);

  it("reads a record whose last line a kill cut short: the call it names, with no answer", () => {
    const file = join(mkdtempSync(join(tmpdir(), "eval-simulate-kill-")), "calls.jsonl");
    writeFileSync(
      file,
      '{"server":"ledger","tool":"append","args":{"id":"a"},"result":{"content":[]}}\n{"server":"ledger","tool":"append","args":{"id":"b","me',
    );
    expect(readRecord(file)).toEqual([
      { server: "ledger", tool: "append", args: { id: "a" }, result: { content: [] } },
      { server: "ledger", tool: "append", args: undefined, result: undefined },
    ]);
    writeFileSync(file, '{"api":"books","operation":"POST /entries","request":{"bo');
    expect(readRecord(file)).toEqual([{ api: "books", operation: "POST /entries", request: undefined, response: undefined }]);
    writeFileSync(file, '{"serv');
    expect(readRecord(file)).toEqual([]);
    // A cut line anywhere but last is damage, not a kill: it still throws.
    writeFileSync(file, '{"server":"ledger","tool":"append","args":{"id":"b","me\n{"server":"ledger","tool":"append","args":{},"result":{}}\n');
    expect(() => readRecord(file)).toThrow(/calls\.jsonl:1: not a JSON line/);
  });
});
