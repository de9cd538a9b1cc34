import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, type ServeProcess, startServe } from "../support/cli-process.js";
import { connect, textOf } from "../support/services.js";

const SUBSETS = new URL("../fixtures/subsets/fakes.yaml", import.meta.url).pathname;

/** The ids of the fakes a serve process printed, in its order (the lines with a fake's URL). */
const printed = (stdout: string) => [...stdout.matchAll(/^ {2}(\S+)\s+http:\/\//gm)].map((m) => m[1]).filter((id) => id !== "sessions" && id !== "health");

async function stop(serve: ServeProcess): Promise<void> {
  serve.child.kill("SIGTERM");
  await serve.exited;
}

describe("serve --fakes and EVAL_SIMULATE_FAKES as a real process", () => {
  it("serves only the fakes of --fakes: the printed list names them, the others answer 404", async () => {
    const serve = await startServe([SUBSETS, "--fakes", "mail,crm"]);
    try {
      expect(printed(serve.stdout())).toEqual(["crm", "mail"]);
      const origin = `http://127.0.0.1:${serve.port}`;
      expect((await fetch(`${origin}/calendar/admin/state`)).status).toBe(404);
      expect((await fetch(`${origin}/billing/invoices`)).status).toBe(404);
      const client = await connect(`${origin}/mail/mcp`);
      expect(textOf(await client.callTool({ name: "send-email", arguments: { to: "ada@example.com" } }))).toContain('"sent":1');
      await client.close();
    } finally {
      await stop(serve);
    }
  });

  it("takes --fakes repeated, an API fake among them", async () => {
    const serve = await startServe([SUBSETS, "--fakes", "crm", "--fakes=billing"]);
    try {
      expect(printed(serve.stdout())).toEqual(["crm", "billing"]);
      expect((await fetch(`http://127.0.0.1:${serve.port}/billing/invoices`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${serve.port}/mail/admin/state`)).status).toBe(404);
    } finally {
      await stop(serve);
    }
  });

  it("selects the sidecar's fakes from EVAL_SIMULATE_FAKES and writes only their manifests", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-subsets-"));
    const serve = await startServe([SUBSETS], { EVAL_SIMULATE_FAKES: " crm , calendar ", EVAL_SIMULATE_MANIFEST_DIR: dir });
    try {
      expect(printed(serve.stdout())).toEqual(["crm", "calendar"]);
      expect(readdirSync(join(dir, "mcp")).sort()).toEqual(["calendar", "crm"]);
      expect((await fetch(`http://127.0.0.1:${serve.port}/mail/admin/state`)).status).toBe(404);
    } finally {
      await stop(serve);
    }
  });

  it("lets --fakes win over EVAL_SIMULATE_FAKES", async () => {
    const serve = await startServe([SUBSETS, "--fakes", "crm"], { EVAL_SIMULATE_FAKES: "crm,mail" });
    try {
      expect(printed(serve.stdout())).toEqual(["crm"]);
    } finally {
      await stop(serve);
    }
  });

  it("refuses to start a subset without a required fake, naming it (exit 1)", async () => {
    const { code, stdout, stderr } = await runCli(["serve", SUBSETS, "--port", "0", "--host", "127.0.0.1", "--fakes", "mail"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      'eval-simulate: cannot serve: the fakes selected (mail) leave out "crm", which the manifest marks required: true; the Recipe cannot run without it: add crm\n',
    );
  });

  it("refuses the sidecar's EVAL_SIMULATE_FAKES without the required fake the same way", async () => {
    const { code, stderr } = await runCli(["serve", SUBSETS, "--port", "0", "--host", "127.0.0.1"], { env: { EVAL_SIMULATE_FAKES: "calendar" } });
    expect(code).toBe(1);
    expect(stderr).toMatch(/cannot serve: the fakes selected \(calendar\) leave out "crm"/);
  });

  it("refuses an unknown id with a did-you-mean (exit 2, a usage error)", async () => {
    const { code, stdout, stderr } = await runCli(["serve", SUBSETS, "--port", "0", "--host", "127.0.0.1", "--fakes", "crm,calender"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      'eval-simulate: cannot serve: the fakes selected name no fake "calender". Did you mean "calendar"? The fakes: crm, mail, calendar, billing\n',
    );
  });
});
