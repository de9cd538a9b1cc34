/**
 * The whole MCP protocol in a fake, with the official client over real HTTP: prompts (template
 * and JSONata over the world), completions (list and expression), paged lists, log messages and
 * progress while a call runs, elicitation and sampling answered by the client and used by the
 * handler, and resource subscriptions told of a commit that changes what they read. The journal
 * and the record keep what was sent and asked.
 */
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { connect, serve, textOf } from "../support/services.js";

const FIXTURE = new URL("../fixtures/protocol/fakes.yaml", import.meta.url).pathname;
const RECORD = join(tmpdir(), `eval-simulate-protocol-${process.pid}.jsonl`);

let services: Services;
beforeAll(async () => {
  services = await serve(FIXTURE, { record: RECORD });
});
afterAll(async () => {
  await services.close();
  rmSync(RECORD, { force: true });
});

/** The official client in the 2025 era, declaring elicitation and sampling, answering both as scripted. */
async function askingClient(url: string, answers: { confirm?: boolean; action?: "accept" | "decline" | "cancel"; reply?: string }): Promise<Client> {
  const client = new Client(
    { name: "asking", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation: { mode: "legacy" } },
  );
  client.setRequestHandler("elicitation/create", async () => ({ action: answers.action ?? "accept", content: { confirm: answers.confirm ?? true } }));
  client.setRequestHandler("sampling/createMessage", async () => ({
    model: "scripted",
    role: "assistant",
    content: { type: "text", text: answers.reply ?? "two notes" },
  }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe.each([
  ["2025-11-25", "legacy"],
  ["2026-07-28", "auto"],
] as const)("prompts, completions and paged lists in the %s era", (_era, mode) => {
  it("lists prompts a page at a time and answers each from its template or from the world", async () => {
    const client = await connect(services.url("notes"), mode);
    try {
      // One page a request: the first names the cursor of the next; the client's listPrompts() walks them all.
      const first = await client.request({ method: "prompts/list", params: {} });
      expect(first.prompts.map((p) => p.name)).toEqual(["review"]);
      const second = await client.listPrompts({ cursor: first.nextCursor! });
      expect(second.prompts.map((p) => p.name)).toEqual(["digest"]);
      expect(second.nextCursor).toBeUndefined();
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["review", "digest"]);
      const review = await client.getPrompt({ name: "review", arguments: { topic: "budget" } });
      expect(review.messages).toEqual([{ role: "user", content: { type: "text", text: "Review the notes about budget." } }]);
      const digest = await client.getPrompt({ name: "digest" });
      expect(digest.messages[0].content).toEqual({ type: "text", text: "Notes: Kickoff, Budget" });
      await expect(client.getPrompt({ name: "review" })).rejects.toThrow(/missing required argument "topic"/);
      await expect(client.getPrompt({ name: "nope" })).rejects.toThrow(/Prompt nope not found/);
    } finally {
      await client.close();
    }
  });

  it("completes a prompt argument from its list and a template variable from the world", async () => {
    const client = await connect(services.url("notes"), mode);
    try {
      const topic = await client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "topic", value: "b" } });
      expect(topic.completion.values).toEqual(["budget", "backlog"]);
      const id = await client.complete({ ref: { type: "ref/resource", uri: "notes://{id}" }, argument: { name: "id", value: "n" } });
      expect(id.completion.values).toEqual(["n1", "n2"]);
    } finally {
      await client.close();
    }
  });

  it("pages tools and resources too, and refuses a cursor it never issued", async () => {
    const client = await connect(services.url("notes"), mode);
    try {
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? undefined : { cursor });
        names.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(names).toEqual(["add-note", "confirm-delete", "summarise", "slow-count"]);
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["notes://all"]);
      await expect(client.listTools({ cursor: "bm9wZQ" })).rejects.toThrow(/Invalid cursor/);
    } finally {
      await client.close();
    }
  });

  it("sends progress on the call's own stream and keeps it in the journal", async () => {
    const client = await connect(services.url("notes"), mode);
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: "slow-count", arguments: {} }, { onprogress: (p) => void progress.push(p.progress) });
      expect(textOf(result)).toBe("2 notes");
      expect(progress).toEqual([1, 2, 3]);
      const entry = services.calls("notes").findLast((call) => call.name === "slow-count")!;
      const kept = entry.exchanges!.map((exchange) => JSON.parse(exchange.text));
      expect(kept.filter((exchange) => exchange.method === "notifications/progress").map((exchange) => exchange.params)).toEqual([
        { progress: 1, total: 3, message: "step 1" },
        { progress: 2, total: 3, message: "step 2" },
        { progress: 3, total: 3, message: "step 3" },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe("log messages while a call runs (2025 era)", () => {
  it("sends them at or above the level the client set, and the journal keeps the ones sent", async () => {
    const client = await connect(services.url("notes"), "legacy");
    try {
      const logs: unknown[] = [];
      client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params));
      await client.setLoggingLevel("info");
      await client.callTool({ name: "slow-count", arguments: {} });
      expect(logs).toEqual([{ level: "info", data: "counting", logger: "notes" }]);
    } finally {
      await client.close();
    }
  });
});

describe("asking the client in a 2025-era session", () => {
  it("elicits the user's answer and acts on it: the journal and the record keep the exchange", async () => {
    // A session of its own: the world it deletes is nobody else's.
    const session = await services.createSession();
    const declining = await askingClient(session.url("notes"), { action: "decline" });
    try {
      expect(textOf(await declining.callTool({ name: "confirm-delete", arguments: {} }))).toBe("kept 2 notes (decline)");
    } finally {
      await declining.close();
    }
    const client = await askingClient(session.url("notes"), { confirm: true });
    try {
      expect(textOf(await client.callTool({ name: "confirm-delete", arguments: {} }))).toBe("deleted every note");
      expect(session.states.notes).toEqual({ notes: [] });
      const entry = session.calls("notes").findLast((call) => call.name === "confirm-delete")!;
      expect(entry.committed).toBe(true);
      expect(JSON.parse(entry.exchanges![0].text)).toMatchObject({ method: "elicitation/create", answer: { action: "accept" } });
      const recorded = readFileSync(RECORD, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
        .findLast((line) => line.tool === "confirm-delete");
      expect(recorded.exchanges[0]).toMatchObject({
        method: "elicitation/create",
        params: { message: "Delete all 2 notes?" },
        answer: { action: "accept", content: { confirm: true } },
      });
    } finally {
      await client.close();
      await session.close();
    }
  });

  it("samples the client's model and answers with its reply", async () => {
    const client = await askingClient(services.url("notes"), { reply: "a kickoff and a budget" });
    try {
      expect(textOf(await client.callTool({ name: "summarise", arguments: {} }))).toBe("summary: a kickoff and a budget");
      const recorded = readFileSync(RECORD, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
        .findLast((line) => line.tool === "summarise");
      expect(recorded.exchanges[0]).toMatchObject({ method: "sampling/createMessage", answer: { model: "scripted" } });
    } finally {
      await client.close();
    }
  });

  it("answers a 2026-07-28 client's call that would ask with a tool error naming why, changing nothing", async () => {
    const client = await connect(services.url("notes"), "auto");
    try {
      const result = await client.callTool({ name: "confirm-delete", arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/elicitation\/create .*cannot reach this client/);
    } finally {
      await client.close();
    }
  });
});

describe("resource subscriptions in a 2025-era session", () => {
  it("tells a subscriber when a commit changes what its URI reads, and not after it unsubscribes", async () => {
    // In a session's world: the commit that matters is the one in the world the subscriber reads.
    const session = await services.createSession();
    const client = await connect(session.url("notes"), "legacy");
    const updated: string[] = [];
    let told: () => void = () => {};
    client.setNotificationHandler("notifications/resources/updated", (n) => {
      updated.push(n.params.uri);
      told();
    });
    try {
      await client.subscribeResource({ uri: "notes://all" });
      await client.subscribeResource({ uri: "notes://n1" });
      const notice = new Promise<void>((resolve) => (told = resolve));
      await client.callTool({ name: "add-note", arguments: { title: "Retro" } });
      await notice;
      // notes://n1 reads the same note as before: only the list changed.
      expect(updated).toEqual(["notes://all"]);
      await client.unsubscribeResource({ uri: "notes://all" });
      await client.unsubscribeResource({ uri: "notes://n1" });
      await client.callTool({ name: "add-note", arguments: { title: "Later" } });
      // A ping round trip: anything sent for the commit would have arrived before its answer.
      await client.ping();
      expect(updated).toEqual(["notes://all"]);
    } finally {
      await client.close();
      await session.close();
    }
  });
});

describe("declarative progress on a stub", () => {
  it("spreads progress over a slow stub's delay, on both eras' streams, and the journal keeps it", async () => {
    const slow = await serve(FIXTURE, { scenario: "slow" });
    try {
      for (const mode of ["legacy", "auto"] as const) {
        const client = await connect(slow.url("notes"), mode);
        try {
          const progress: Array<[number, number | undefined]> = [];
          const result = await client.callTool(
            { name: "add-note", arguments: { title: "x" } },
            { onprogress: (p) => void progress.push([p.progress, p.total]) },
          );
          expect(textOf(result)).toBe('{"added":"slowly"}');
          expect(progress).toEqual([
            [1, 4],
            [2, 4],
            [3, 4],
            [4, 4],
          ]);
        } finally {
          await client.close();
        }
      }
      const entry = slow.calls("notes").at(-1)!;
      expect(entry.stub).toBe("slow-add");
      expect(entry.exchanges?.map((exchange) => JSON.parse(exchange.text).method)).toEqual(Array(4).fill("notifications/progress"));
    } finally {
      await slow.close();
    }
  });
});
