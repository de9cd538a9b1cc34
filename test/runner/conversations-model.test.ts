import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { copyRecipe } from "../support/evals-files.js";
import { type ScriptedProvider, type ScriptedReply, type ScriptedRequest, startScriptedProvider } from "../support/scripted-provider.js";

// The crm example's conversation cases in their model form: the agent an openai-compatible model
// and the user an Anthropic one, both answered by one scripted provider on loopback.

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const UMBRELLA = "0080618c-1fdc-54e1-9e26-73c948373f91";
const ACME_DEAL = "3037a4ba-abda-5430-9236-62b732998586";
const ORDER_TASK = "c2459127-e39c-5225-a039-6818ce44c72f";
const USER_MODEL = "anthropic:claude-haiku-4-5";

type Call = { name: string; arguments: unknown };
/** Per case: the agent's calls and reply each turn, and the user's replies (each with its own calls). */
interface Plan {
  agent: Array<{ calls: Call[]; answer: string }>;
  user: Array<{ calls?: Call[]; text: string }>;
}

const messagesOf = (request: ScriptedRequest) => (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;

/** The agent's turn (its user messages so far) and its step in it (tool results since the last). */
function agentStep(request: ScriptedRequest): { turn: number; step: number } {
  const messages = messagesOf(request);
  const turn = messages.filter((m) => m.role === "user").length;
  let step = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i].role !== "user"; i--) if (messages[i].role === "tool") step++;
  return { turn, step };
}

/** The simulator's reply index (its own earlier messages, as `assistant`, less the case's prompt) and its tool results in this reply. */
function userStep(request: ScriptedRequest): { reply: number; step: number } {
  const messages = messagesOf(request);
  const own = messages.filter((m) => m.role === "assistant" && !(Array.isArray(m.content) && m.content.some((b: { type?: string }) => b.type === "tool_use")));
  return { reply: own.length - 1, step: request.toolResults.length };
}

/** One scripted provider playing both sides of the plans, by case (told apart by their prompts). */
function playing(plans: Record<string, Plan>, caseOf: (request: ScriptedRequest) => string) {
  return (request: ScriptedRequest): ScriptedReply => {
    const plan = plans[caseOf(request)];
    if (!plan) return { status: 500 };
    if (request.api === "openai") {
      const { turn, step } = agentStep(request);
      const mine = plan.agent[turn - 1];
      if (!mine) return { text: "(nothing planned)" };
      const call = mine.calls[step];
      return call ? { toolCalls: [call], usage: { input: 100, output: 10 } } : { text: mine.answer, usage: { input: 100, output: 10 } };
    }
    const { reply, step } = userStep(request);
    const mine = plan.user[reply];
    if (!mine) return { text: "###STOP###", usage: { input: 50, output: 5 } };
    const call = mine.calls?.[step];
    return call ? { toolCalls: [call], usage: { input: 50, output: 5 } } : { text: mine.text, usage: { input: 50, output: 5 } };
  };
}

const PLANS: Record<string, Plan> = {
  "clarify-before-writing": {
    agent: [
      { calls: [], answer: "Which company should the note go on?" },
      {
        calls: [
          {
            name: "create-note",
            arguments: { parent_object: "companies", parent_record_id: UMBRELLA, title: "Kick-off", content: "Kick-off call booked for 3 March." },
          },
        ],
        answer: "Added the note to Umbrella.",
      },
    ],
    user: [{ text: "Umbrella, please: Kick-off call booked for 3 March." }],
  },
  "user-changes-mind": {
    agent: [
      { calls: [{ name: "search-records", arguments: { object: "deals", query: "Acme" } }], answer: "Found the Acme renewal. Shall I mark it lost?" },
      { calls: [{ name: "update-record", arguments: { object: "deals", record_id: ACME_DEAL, values: { stage: "won" } } }], answer: "Done: it is marked won." },
    ],
    user: [{ text: "No wait, they signed. Mark it won." }],
  },
  "user-closes-own-task": {
    agent: [
      { calls: [], answer: "Tell me once the form is out and your task is ticked off?" },
      { calls: [{ name: "update-record", arguments: { object: "deals", record_id: ACME_DEAL, values: { stage: "won" } } }], answer: "The renewal is won." },
    ],
    user: [{ calls: [{ name: "complete-task", arguments: { task_id: ORDER_TASK } }], text: "Sent, and my task is ticked off." }],
  },
};

/** The case a request belongs to, from the opening words both sides were given. */
function caseOf(request: ScriptedRequest): string {
  const text = JSON.stringify(request.body.messages ?? []) + String(request.body.system ?? "");
  if (text.includes("kick-off call")) return "clarify-before-writing";
  if (text.includes("marked lost") || text.includes("as lost")) return "user-changes-mind";
  return "user-closes-own-task";
}

const env = (p: ScriptedProvider) => ({ ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: p.baseURL });
const agentHost = (p: ScriptedProvider) => ({ type: "model" as const, model: "openai-compatible:agent", baseURL: p.baseURL });
const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});
const conversations = () => {
  const dir = copyRecipe("crm");
  copies.push(dir);
  return join(dir, "conversations.yaml");
};

describe("conversation cases with a model agent and a model user", () => {
  it("passes the crm example's three conversations, the model playing both sides", async () => {
    provider = await startScriptedProvider(playing(PLANS, caseOf));
    const result = await runEvals({ evals: conversations(), env: env(provider), host: agentHost(provider), concurrency: 1, retry: { retries: 0 } });
    expect(result.lines.map((line) => [line.case, line.status, line.turns])).toEqual([
      ["clarify-before-writing", "pass", 2],
      ["user-changes-mind", "pass", 2],
      ["user-closes-own-task", "pass", 2],
    ]);
    expect(result.exitCode).toBe(0);
  });

  it("carries the agent's history across turns: the provider receives the earlier messages", async () => {
    provider = await startScriptedProvider(playing(PLANS, caseOf));
    await runEvals({ evals: conversations(), cases: ["clarify-before-writing"], env: env(provider), host: agentHost(provider), retry: { retries: 0 } });
    const secondTurn = provider.requests.find((r) => r.api === "openai" && agentStep(r).turn === 2)!;
    const said = messagesOf(secondTurn).map((m) => [m.role, typeof m.content === "string" ? m.content : ""]);
    expect(said).toContainEqual(["user", "Add a note about our kick-off call, please."]);
    expect(said).toContainEqual(["assistant", "Which company should the note go on?"]);
    expect(said).toContainEqual(["user", "Umbrella, please: Kick-off call booked for 3 March."]);
    // The simulator was told who it is, and shown the agent's words as the other side's.
    const simulated = provider.requests.find((r) => r.api === "anthropic")!;
    expect(JSON.stringify(simulated.body.system)).toContain("You are Sam, an account manager at Northwind");
    expect(JSON.stringify(messagesOf(simulated))).toContain("Which company should the note go on?");
    expect(simulated.body.temperature).toBe(0);
  });

  it("counts the simulator's tokens and cost apart from the agent's, both against the budget", async () => {
    provider = await startScriptedProvider(playing(PLANS, caseOf));
    const result = await runEvals({
      evals: conversations(),
      cases: ["clarify-before-writing"],
      env: env(provider),
      host: agentHost(provider),
      retry: { retries: 0 },
      budgetUsd: 10,
      prices: { "openai-compatible:agent": { input: 10, output: 10 } },
    });
    const line = result.lines[0];
    // The agent: three requests (a question; a call, then its reply); the user: its answer, then its stop.
    expect(line).toMatchObject({ requests: 3, usage: { inputTokens: 300, outputTokens: 30 } });
    expect(line.costUsd).toBeCloseTo((330 * 10) / 1e6, 10);
    expect(line.user).toMatchObject({ model: USER_MODEL, requests: 2, usage: { inputTokens: 100, outputTokens: 10 } });
    expect(line.user!.costUsd).toBeCloseTo((100 * 1 + 10 * 5) / 1e6, 10);
    // The run's cost (what its budget was charged) is both sides'.
    expect(result.costUsd).toBeCloseTo(line.costUsd + line.user!.costUsd, 10);
  });

  it("charges the simulator to the run's budget: a user who spends it leaves the agent's next turn not run", async () => {
    provider = await startScriptedProvider(playing(PLANS, caseOf));
    const result = await runEvals({
      evals: conversations(),
      cases: ["clarify-before-writing"],
      env: env(provider),
      host: agentHost(provider),
      retry: { retries: 0 },
      budgetUsd: 1,
      prices: { "openai-compatible:agent": { input: 0, output: 0 }, [USER_MODEL]: { input: 100_000, output: 0 } },
    });
    const line = result.lines[0];
    expect(line).toMatchObject({ status: "not_run", reason: "the budget was spent before turn 2", turns: 2, costUsd: 0 });
    expect(line.user!.costUsd).toBeCloseTo(5, 10);
    expect(provider.requests.filter((r) => r.api === "openai")).toHaveLength(1);
  });

  it("attributes the user's own calls to the user (dual control), offering the simulator only its own tools", async () => {
    provider = await startScriptedProvider(playing(PLANS, caseOf));
    const result = await runEvals({
      evals: conversations(),
      cases: ["user-closes-own-task"],
      env: env(provider),
      host: agentHost(provider),
      retry: { retries: 0 },
    });
    const line = result.lines[0];
    expect(line.status).toBe("pass");
    const record = line.session!.record as Array<{ tool: string; by: string; turn: number }>;
    expect(record.map((r) => [r.tool, r.by, r.turn])).toEqual([
      ["complete-task", "user", 2],
      ["update-record", "agent", 2],
    ]);
    // The simulator was offered only its own tool.
    const offered = provider.requests.find((r) => r.api === "anthropic")!.body.tools as Array<{ name: string }>;
    expect(offered.map((t) => t.name)).toEqual(["complete-task"]);
  });

  it("ends on the user's stop signal, and on maxTurns when neither side stops", async () => {
    provider = await startScriptedProvider(playing(PLANS, caseOf));
    const stopped = await runEvals({
      evals: conversations(),
      cases: ["user-changes-mind"],
      env: env(provider),
      host: agentHost(provider),
      retry: { retries: 0 },
    });
    expect(stopped.lines[0].turns).toBe(2);
    await provider.close();
    // A user who never stops: four turns (the case's maxTurns), then the loop ends it.
    provider = await startScriptedProvider((request) => (request.api === "openai" ? { text: "Anything else?" } : { text: "Tell me more." }));
    const endless = await runEvals({
      evals: conversations(),
      cases: ["user-changes-mind"],
      env: env(provider),
      host: agentHost(provider),
      retry: { retries: 0 },
    });
    expect(endless.lines[0].turns).toBe(4);
    expect(provider.requests.filter((r) => r.api === "openai")).toHaveLength(4);
    expect(provider.requests.filter((r) => r.api === "anthropic")).toHaveLength(3);
  });

  it("ends when the agent gives its stop signal", async () => {
    provider = await startScriptedProvider((request) => (request.api === "openai" ? { text: "Nothing more to do. ###DONE###" } : { text: "Go on." }));
    const dir = copyRecipe("crm");
    const file = join(dir, "conversations.yaml");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        "maxTurns: 4\n    turns:\n      - calls:\n          - { tool: crm/search-records, arguments: { object: deals, query: Acme } }\n        answer: I found",
        'maxTurns: 4\n      agentStop: "###DONE###"\n    turns:\n      - calls:\n          - { tool: crm/search-records, arguments: { object: deals, query: Acme } }\n        answer: I found',
      ),
    );
    const result = await runEvals({ evals: file, cases: ["user-changes-mind"], env: env(provider), host: agentHost(provider), retry: { retries: 0 } });
    expect(result.lines[0].turns).toBe(1);
    expect(provider.requests.filter((r) => r.api === "anthropic")).toHaveLength(0);
  });

  it("skips a conversation whose user model has no key, exiting 0 when everything skips", async () => {
    provider = await startScriptedProvider(playing(PLANS, caseOf));
    const result = await runEvals({ evals: conversations(), env: {}, host: agentHost(provider), retry: { retries: 0 } });
    expect(result.lines.map((line) => line.status)).toEqual(["skipped", "skipped", "skipped"]);
    expect(result.lines[0].reason).toBe("no API key: set ANTHROPIC_API_KEY");
    expect(result.exitCode).toBe(0);
    expect(provider.requests).toHaveLength(0);
  });

  it("marks the trial not run, never failed, when the simulator's provider errors or it breaks format", async () => {
    provider = await startScriptedProvider((request) => (request.api === "openai" ? { text: "Which company?" } : { status: 503 }));
    const errored = await runEvals({
      evals: conversations(),
      cases: ["clarify-before-writing"],
      env: env(provider),
      host: agentHost(provider),
      retry: { retries: 0 },
    });
    expect(errored.lines[0].status).toBe("not_run");
    expect(errored.lines[0].reason).toMatch(/^the user simulator anthropic:claude-haiku-4-5 failed: /);
    expect(errored.failed).toBe(0);
    await provider.close();
    provider = await startScriptedProvider((request) => (request.api === "openai" ? { text: "Which company?" } : { text: "   " }));
    const blank = await runEvals({
      evals: conversations(),
      cases: ["clarify-before-writing"],
      env: env(provider),
      host: agentHost(provider),
      retry: { retries: 0 },
    });
    expect(blank.lines[0]).toMatchObject({ status: "not_run", turns: 1 });
    expect(blank.lines[0].reason).toMatch(/broke format/);
  });
});
