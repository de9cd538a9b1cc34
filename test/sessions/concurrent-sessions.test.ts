import { describe, expect, it } from "vitest";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { startServices } from "../../engine/serve/host/start-services.js";
import type { States } from "../../engine/serve/runtime/state-store.js";
import { examples } from "../support/examples.js";
import { CLOCK, connect } from "../support/services.js";
import { CALLS_PER_TRIAL, PROBE_STUB, runAlone, runConcurrently } from "./crm-script.js";

const CRM = examples().find(([name]) => name === "crm")![1];
const TRIALS = 200;

/** Runs `task` over `items`, `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) results.push(...(await Promise.all(items.slice(i, i + width).map(task))));
  return results;
}

const json = async (response: Response) => {
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return response.json();
};

describe("many sessions of examples/crm at once", () => {
  it("gives 200 concurrent trials each its own world: each ends as its script run alone on a fresh serve, nothing leaks, the process's world is untouched", async () => {
    const { fakes, world } = await loadFakes(CRM, { clock: CLOCK });
    const options = { world, clock: CLOCK, stubs: { quiet: [PROBE_STUB] } };
    // The process's own world never uses the probe: its warning about that is expected.
    const services = await startServices(fakes, { ...options, warn: () => {} });
    try {
      const initial = services.initial;
      const trials = Array.from({ length: TRIALS }, (_, k) => k);
      // Every session is created at once, then every trial's three clients write at once.
      const sessions = await Promise.all(
        trials.map((k) =>
          fetch(`${services.origin}/sessions`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ id: `trial-${k}`, seed: k }),
          }).then(json),
        ),
      );
      expect(sessions.map((s) => s.id)).toEqual(trials.map((k) => `trial-${k}`));
      const problems = await Promise.all(
        sessions.map(async (session, k) => {
          const url = session.mcpServers[0].url as string;
          // Both protocol eras: two 2025-11-25 clients and one 2026-07-28 client per trial.
          const clients = await Promise.all([connect(url), connect(url, "auto"), connect(url)]);
          try {
            return await runConcurrently(k, initial, clients as [never, never, never]);
          } finally {
            await Promise.all(clients.map((client) => client.close()));
          }
        }),
      );
      expect(problems.flat()).toEqual([]);

      const admin = (k: number, route: string) => fetch(`${services.origin}/s/trial-${k}/crm/admin/${route}`).then(json);
      const finals: States["crm"][] = await Promise.all(trials.map((k) => admin(k, "state")));
      for (const k of trials) {
        // The session's journal holds its own seven calls, each naming its own trial where it names one (complete-task and the probes name none).
        const { calls } = await admin(k, "calls");
        expect(calls).toHaveLength(CALLS_PER_TRIAL);
        const named = calls.map((c: { input: { value?: unknown } | unknown }) => JSON.stringify(c.input)).filter((text: string) => text.includes("Trial "));
        expect(named).toHaveLength(4);
        for (const text of named) expect(text).toContain(`Trial ${k} `);
        // Its stub's cursor moved twice, by its own two probes.
        expect((await admin(k, "stubs")).stubs).toEqual([{ id: "probe", fake: "crm", target: "list-notes", uses: 2 }]);
      }

      // The process's own world saw none of it.
      expect(services.states).toEqual(services.initial);
      expect(services.calls()).toEqual([]);
      expect(services.stubs()).toEqual([{ id: "probe", fake: "crm", target: "list-notes", uses: 0 }]);

      // The same script, run alone on a fresh serve per trial, ends in the same state.
      const alone = await inBatches(trials, 8, async (k) => {
        const fresh = await startServices(fakes, options);
        try {
          const client = await connect(fresh.url("crm"));
          const problems = await runAlone(k, fresh.initial, client);
          await client.close();
          return { problems, state: JSON.parse(JSON.stringify(fresh.states.crm)) };
        } finally {
          await fresh.close();
        }
      });
      expect(alone.flatMap((run) => run.problems)).toEqual([]);
      for (const k of trials) expect(finals[k], `trial ${k}`).toEqual(alone[k].state);
      // Trials differ: a session holding another's writes could not pass the comparison above.
      expect(finals[1]).not.toEqual(finals[2]);
    } finally {
      await services.close();
    }
  }, 300_000);
});
