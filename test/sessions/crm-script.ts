import type { Client } from "@modelcontextprotocol/client";
import type { StubManifest } from "../../engine/author/model/types.js";
import type { States } from "../../engine/serve/runtime/state-store.js";
import { textOf } from "../support/services.js";

/** A stub of list-notes with a sequence of its own, so a leaked cursor shows as a wrong answer. */
export const PROBE_STUB: StubManifest = {
  id: "probe",
  fake: "crm",
  target: "list-notes",
  match: { limit: { const: 7 } },
  outcomes: [{ error: "probe 1" }, { error: "probe 2" }, { error: "probe 3" }],
  source: { file: "test", line: 1, column: 1, path: "scenarios.quiet.stubs[0]" },
};

type Call = (name: string, args: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>;

const caller =
  (client: Client): Call =>
  async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    return { text: textOf(result), isError: result.isError === true };
  };

/**
 * Trial k's writes, as three clients make them: notes (A), a task created and completed (B), a
 * company and two stubbed probes (C). Each client writes its own entities, so the final state
 * does not depend on how the clients interleave. Returns what went wrong, if anything.
 */
export function crmScript(k: number, initial: States) {
  const crm = initial.crm as { companies: Array<{ id: string }>; people: Array<{ id: string }> };
  const company = crm.companies[k % crm.companies.length].id;
  const person = crm.people[k % crm.people.length].id;
  const problems: string[] = [];
  const expect = (what: string, ok: boolean) => void (ok || problems.push(`trial ${k}: ${what}`));
  return {
    problems,
    clientA: async (call: Call) => {
      for (const n of [1, 2]) {
        const note = await call("create-note", { parent_object: "companies", parent_record_id: company, title: `Trial ${k} note ${n}`, content: `k=${k}` });
        expect(`note ${n} is created`, !note.isError);
      }
    },
    clientB: async (call: Call) => {
      const created = await call("create-task", { content: `Trial ${k} follow-up`, linked_records: [{ object: "people", record_id: person }] });
      expect("the task is created", !created.isError);
      const { id } = JSON.parse(created.text) as { id: string };
      const done = await call("complete-task", { task_id: id });
      expect("the task is completed", !done.isError && done.text.includes('"is_completed":true'));
    },
    clientC: async (call: Call) => {
      const made = await call("create-record", { object: "companies", values: { name: `Trial ${k} Inc`, domain: `trial-${k}.example` } });
      expect(`the company is created (${made.text.slice(0, 120)})`, !made.isError);
      for (const n of [1, 2]) {
        const probe = await call("list-notes", { limit: 7 });
        expect(`probe ${n} answers "probe ${n}", not "${probe.text}"`, probe.isError && probe.text === `probe ${n}`);
      }
    },
  };
}

/** Runs one trial's script with three clients at once. */
export async function runConcurrently(k: number, initial: States, clients: [Client, Client, Client]): Promise<string[]> {
  const script = crmScript(k, initial);
  await Promise.all([script.clientA(caller(clients[0])), script.clientB(caller(clients[1])), script.clientC(caller(clients[2]))]);
  return script.problems;
}

/** Runs one trial's script alone, one client after the other. */
export async function runAlone(k: number, initial: States, client: Client): Promise<string[]> {
  const script = crmScript(k, initial);
  await script.clientA(caller(client));
  await script.clientB(caller(client));
  await script.clientC(caller(client));
  return script.problems;
}

/** Calls per trial: 2 notes, 2 task calls, 1 company, 2 probes. */
export const CALLS_PER_TRIAL = 7;
