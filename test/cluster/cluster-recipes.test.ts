/**
 * The cluster recipes of docs/cluster.md, checked offline: the Kubernetes manifests against the
 * Kubernetes API's JSON Schemas (kubernetes-models: the OpenAPI schemas compiled by ajv), the
 * workflow by GitHub's own workflow parser and its schema, and the Indexed Job's shard commands
 * run here as local processes, merged as its merge Job merges them.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { Job } from "kubernetes-models/batch/v1/Job";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { Service } from "kubernetes-models/v1/Service";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";

const DIR = join(ROOT, "examples/cluster");
type Doc = { apiVersion: string; kind: string; metadata: { name: string }; spec: any };
const docs = (file: string): Doc[] => parseAllDocuments(readFileSync(join(DIR, file), "utf8")).map((d) => d.toJS() as Doc);
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  "batch/v1 Job": Job,
  "apps/v1 Deployment": Deployment,
  "v1 Service": Service,
  "v1 PersistentVolumeClaim": PersistentVolumeClaim,
};
const validate = (doc: Doc) => {
  const Model = MODELS[`${doc.apiVersion} ${doc.kind}`];
  if (!Model) throw new Error(`no schema for ${doc.apiVersion} ${doc.kind}`);
  new Model(doc).validate();
};
const workflowErrors = (content: string) =>
  parseWorkflow({ name: "evals.yml", content }, new NoOperationTraceWriter())
    .context.errors.getErrors()
    .map((e) => e.message);

/** Runs `sh -c script` with the environment given; resolves its exit code and output. */
function sh(script: string, env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", script], { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the cluster recipes in examples/cluster", () => {
  it("are valid Kubernetes objects by the API's schemas, and the schemas refuse a broken one", () => {
    const all = ["eval-results-pvc.yaml", "eval-shards-job.yaml", "eval-merge-job.yaml", "serve-sidecar.yaml"].flatMap(docs);
    expect(all.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual([
      "PersistentVolumeClaim/eval-results",
      "Job/eval-shards",
      "Job/eval-merge",
      "Deployment/eval-simulate-fakes",
      "Service/eval-simulate-fakes",
    ]);
    for (const doc of all) expect(() => validate(doc), `${doc.kind}/${doc.metadata.name}`).not.toThrow();
    const [job] = docs("eval-shards-job.yaml");
    expect(() => validate({ ...job!, spec: { ...job!.spec, completions: "four" } })).toThrow(/completions must be integer/);
    const broken = structuredClone(job!);
    delete broken.spec.template.spec.containers;
    expect(() => validate(broken)).toThrow(/spec\/template\/spec must have required property containers/);
  });

  it("shard the run by the Job's index, share one results volume with the merge, and probe the fakes at /health", () => {
    const [pvc] = docs("eval-results-pvc.yaml");
    const [shards] = docs("eval-shards-job.yaml");
    const [merge] = docs("eval-merge-job.yaml");
    const [deployment, service] = docs("serve-sidecar.yaml");
    const container = shards!.spec.template.spec.containers[0];
    const env = Object.fromEntries(container.env.map((e: { name: string; value?: string }) => [e.name, e.value]));
    expect(shards!.spec).toMatchObject({ completionMode: "Indexed", completions: Number(env.SHARDS), parallelism: Number(env.SHARDS) });
    expect(container.args[0]).toContain('--shard "$i/$SHARDS"');
    for (const job of [shards!, merge!]) expect(job.spec.template.spec.volumes[0].persistentVolumeClaim.claimName).toBe(pvc!.metadata.name);
    expect(pvc!.spec.accessModes).toEqual(["ReadWriteMany"]);
    const serve = deployment!.spec.template.spec.containers[0];
    expect(serve.readinessProbe.httpGet).toEqual({ path: "/health", port: "http" });
    expect(serve.ports[0]).toEqual({ name: "http", containerPort: 7353 });
    expect(serve.env.map((e: { name: string }) => e.name)).toEqual(expect.arrayContaining(["EVAL_SIMULATE_ADMIN_TOKEN", "EVAL_SIMULATE_ALLOWED_HOSTS"]));
    expect(service!.spec.selector).toEqual(deployment!.spec.selector.matchLabels);
  });

  it("is a valid GitHub Actions workflow by GitHub's own parser: shards in a matrix, then a merge job after them", async () => {
    const content = readFileSync(join(DIR, "github-workflow.yml"), "utf8");
    expect(workflowErrors(content)).toEqual([]);
    const parsed = parseWorkflow({ name: "evals.yml", content }, new NoOperationTraceWriter());
    const template = await convertWorkflowTemplate(parsed.context, parsed.value!);
    expect(template.errors ?? []).toEqual([]);
    const jobs = template.jobs as Array<{ id: { value: string }; needs?: Array<{ value: string }> }>;
    expect(jobs.map((j) => j.id.value)).toEqual(["shard", "merge"]);
    expect(jobs[1]!.needs?.map((n) => n.value)).toEqual(["shard"]);
    expect(content).toMatch(/--shard \$\{\{ matrix\.shard \}\}\/4/);
    // The parser does refuse what GitHub would.
    expect(workflowErrors(content.replace("runs-on: ubuntu-latest", "runs_on: ubuntu-latest")).join("\n")).toMatch(/Unexpected value 'runs_on'/);
  });

  it("runs the Job's four shard commands as local processes, and its merge step reports them as the one-process run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-cluster-"));
    const results = join(dir, "results");
    mkdirSync(results);
    // `eval-simulate` on the PATH, as the image has it.
    const bin = join(dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "eval-simulate"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, "dist/cli/main.js"))} "$@"\n`);
    chmodSync(join(bin, "eval-simulate"), 0o755);
    const [shards] = docs("eval-shards-job.yaml");
    const [merge] = docs("eval-merge-job.yaml");
    const container = shards!.spec.template.spec.containers[0];
    const manifestEnv: Record<string, string> = Object.fromEntries(
      container.env.flatMap((e: { name: string; value?: string }) => (e.value === undefined ? [] : [[e.name, e.value]])),
    );
    // The Job's own environment, the Recipe and volume swapped for local ones and the model for the scripts.
    const env: Record<string, string> = {
      PATH: `${bin}:${process.env.PATH}`,
      NO_COLOR: "1",
      ...manifestEnv,
      EVALS: "examples/crm/evals.yaml",
      RESULTS: results,
      EVAL_FLAGS: "--dry --workers 2",
    };
    const pods = await Promise.all(
      Array.from({ length: Number(env.SHARDS!) }, (_, index) => sh(container.args[0], { ...env, JOB_COMPLETION_INDEX: String(index) }, ROOT)),
    );
    for (const pod of pods) expect(pod, pod.stderr).toMatchObject({ code: 0 });
    expect([1, 2, 3, 4].every((i) => existsSync(join(results, `shard-${i}-of-4.ndjson`)))).toBe(true);

    const report = merge!.spec.template.spec.containers[0];
    const merged = await sh(report.args[0], { PATH: env.PATH, NO_COLOR: "1", RESULTS: results }, ROOT);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/trials: 8 \(8 passed/);
    expect(readFileSync(join(results, "junit.xml"), "utf8")).toContain('<testsuites name="eval-simulate" tests="8" failures="0" skipped="0"');
    expect(readFileSync(join(results, "report.md"), "utf8")).toContain("### PASS: 5 cases (5 passed, 0 failed)");
    const whole = await runCli(["eval", "examples/crm/evals.yaml", "--dry", "--out", join(dir, "whole.ndjson")]);
    const one = await runCli(["report", join(dir, "whole.ndjson")]);
    expect(whole.code).toBe(0);
    const timeless = (text: string) => text.replace(/[\d.]+s$/gm, "");
    expect(timeless(merged.stdout)).toBe(timeless(one.stdout));
  }, 180_000);
});

describe("docs/cluster.md", () => {
  it.each(["github-workflow.yml", "eval-results-pvc.yaml", "eval-shards-job.yaml", "eval-merge-job.yaml", "serve-sidecar.yaml"])(
    "shows examples/cluster/%s as it is tested",
    (file) => {
      expect(readFileSync(join(ROOT, "docs/cluster.md"), "utf8")).toContain(`\`\`\`yaml\n${readFileSync(join(DIR, file), "utf8")}\`\`\``);
    },
  );
});
