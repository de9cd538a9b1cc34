import { describe, expect, it } from "vitest";
import { startServe } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { connect, textOf } from "../support/services.js";

/**
 * Huge numbers and range bounds, thrown at the shipped examples' paged reads through one real
 * `serve` process each: every call answers (a page, a tool error or an error status) within the
 * time limit, nothing changes, and the host still answers `/health` at the end. Seeded, so a
 * failure replays; bounded in count.
 */

const EDGES = [
  0,
  1,
  2 ** 31,
  2 ** 32,
  1e15,
  2 ** 53 - 2,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 60,
  1e16,
  1e21,
  1e300,
  Number.MAX_VALUE,
  -1,
  -(2 ** 53),
  -1e300,
];

/** A small seeded generator (mulberry32): the same inputs every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The edges, then seeded integers of every magnitude up to 1e308, either sign. */
function hostileNumbers(count: number, seed: number): number[] {
  const next = random(seed);
  const drawn = Array.from({ length: count - EDGES.length }, () => {
    const magnitude = Math.floor(10 ** (next() * 308));
    return next() < 0.2 ? -magnitude : magnitude;
  });
  return [...EDGES, ...drawn];
}

/** Generous: the fakes' time limit is 30 s; a blocked host would not answer at all. */
const WITHIN_MS = 20_000;

async function within<T>(work: Promise<T>): Promise<T> {
  const started = Date.now();
  const value = await work;
  expect(Date.now() - started).toBeLessThan(WITHIN_MS);
  return value;
}

describe("huge numbers and range bounds against the examples' paged reads", () => {
  it("the CRM's list-records answers every offset and limit, and nothing changes", async () => {
    const serve = await startServe([`${ROOT}examples/crm/fakes.yaml`]);
    try {
      const state = `http://127.0.0.1:${serve.port}/crm/admin/state`;
      const before = await (await fetch(state)).json();
      const client = await connect(`http://127.0.0.1:${serve.port}/crm/mcp`);
      const numbers = hostileNumbers(40, 53);
      const seen = { page: 0, refused: 0, range: 0 };
      for (const [i, offset] of numbers.entries()) {
        // Mostly a valid limit, so the offset reaches the handler; every third a hostile one.
        const limit = i % 3 === 2 ? numbers[(i * 7) % numbers.length]! : 1 + ((i * 13) % 100);
        const result = await within(client.callTool({ name: "list-records", arguments: { object: "deals", offset, limit } }));
        // Outside the schema (negative, a limit past 100) is refused; inside it, a page or a range error.
        if (result.isError) expect(textOf(result), `offset ${offset}, limit ${limit}`).toMatch(/Input validation error|range the bound|past its limit/);
        seen[!result.isError ? "page" : textOf(result).includes("range the bound") ? "range" : "refused"]++;
      }
      // Every kind of answer was reached, so the inputs do cross 2^53.
      expect(
        Object.values(seen).every((n) => n > 0),
        JSON.stringify(seen),
      ).toBe(true);
      await client.close();
      expect(await (await fetch(`http://127.0.0.1:${serve.port}/health`)).json()).toEqual({ ok: true });
      expect(await (await fetch(state)).json()).toEqual(before);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });

  it("GitHub's issue list answers every page and per_page with a page or an error status", async () => {
    const serve = await startServe([`${ROOT}examples/github/fakes.yaml`]);
    try {
      const base = `http://127.0.0.1:${serve.port}/github/repos/acme/widgets/issues`;
      const numbers = hostileNumbers(40, 1e9 + 7);
      const statuses = new Set<number>();
      for (const [i, page] of numbers.entries()) {
        const perPage = numbers[(i * 11) % numbers.length]!;
        const response = await within(fetch(`${base}?page=${page}&per_page=${perPage}`));
        expect([200, 400, 500], `page ${page}, per_page ${perPage}`).toContain(response.status);
        statuses.add(response.status);
        await response.arrayBuffer();
      }
      expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 500]));
      expect(await (await fetch(`http://127.0.0.1:${serve.port}/health`)).json()).toEqual({ ok: true });
      expect((await fetch(base)).status).toBe(200);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });
});
