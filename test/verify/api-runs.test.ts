import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { changedEntities, loadManifests, readRecord, writeAttempts } from "../../engine/entries/verify.js";
import { examples } from "../support/examples.js";
import { serve } from "../support/services.js";

const GITHUB = examples().find(([name]) => name === "github")![1];

describe("verify over API fakes", () => {
  it("sees an API write as an attempt and a change, and a refused one as an attempt only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-verify-api-"));
    const services = await serve(GITHUB, { record: join(dir, "calls.jsonl"), manifestDir: join(dir, "manifests") });
    const base = services.baseUrl("github");
    const post = (body: unknown) =>
      fetch(`${base}/repos/acme/widgets/issues`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await fetch(`${base}/repos/acme/widgets/issues/1`)).status).toBe(200);
    expect((await post({ body: "no title" })).status).toBe(400);
    const initial = structuredClone(services.initial);
    let final = structuredClone(services.states);
    const manifests = loadManifests(join(dir, "manifests"));
    expect(changedEntities({ initial, final }, manifests)).toEqual([]);
    expect(writeAttempts(readRecord(join(dir, "calls.jsonl")), manifests).map((a) => [a.server, a.tool])).toEqual([["github", "issues/create"]]);

    expect((await post({ title: "Saving a filter times out" })).status).toBe(201);
    final = structuredClone(services.states);
    await services.close();
    expect(changedEntities({ initial, final }, manifests)).toEqual(["github.issues"]);
    expect(writeAttempts(readRecord(join(dir, "calls.jsonl")), manifests)).toHaveLength(2);
    expect(loadManifests(GITHUB)).toEqual(manifests);
    expect(readFileSync(join(dir, "calls.jsonl"), "utf8")).toContain('"operation":"POST /repos/{owner}/{repo}/issues"');
  });
});
