import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { isMap, parseDocument, parse, stringify } from "yaml";
import { documentOperations } from "../manifest/index.js";
import { readDescription } from "./read-description.js";
import { type CaptureCorrections, findOperation, trimDocument } from "./trim-document.js";

export interface CaptureOptions {
  /** The manifest (fakes.yaml) whose `apis.<id>` records the capture. */
  manifest: string;
  id: string;
  /** A URL or a file; the manifest's `capture.source` when unset. */
  spec?: string;
  /** `METHOD /path` or operationIds; the manifest's `capture.operations` when unset. */
  operations?: string[];
  /** Where the trimmed document goes; the api's `openapi`, or `api/<id>/openapi.yaml`. */
  out?: string;
  /** Write nothing; report each operation that differs from the committed document. */
  check?: boolean;
}

export interface CaptureResult {
  /** The trimmed document's path. */
  file: string;
  operations: string[];
  /** With `check`: the operations whose committed form differs from a fresh trim (empty: none). */
  differing?: string[];
}

type Json = Record<string, unknown>;

/** The JSON of one operation and every component it reaches, for comparing a capture. */
function operationView(document: Json, name: string): string | undefined {
  const op = findOperation(documentOperations(document), name);
  if (!op) return undefined;
  const item = (document.paths as Record<string, Json>)[op.pathTemplate];
  const single = trimDocument({ ...document, paths: { [op.pathTemplate]: item } }, [name]);
  return JSON.stringify(single);
}

/**
 * `eval-simulate capture`: trims a published OpenAPI description to the operations a Recipe
 * uses, applies the corrections recorded in the manifest, writes the fake's document and records
 * the capture (source, operations) in the manifest, keeping its comments. With `check`, writes
 * nothing and names each operation that differs from the committed document.
 *
 * @example await capture({ manifest: "fakes.yaml", id: "github", spec: "github.json", operations: ["GET /repos/{owner}/{repo}/issues"] });
 */
export async function capture(options: CaptureOptions): Promise<CaptureResult> {
  const manifestFile = resolve(options.manifest);
  const dir = dirname(manifestFile);
  const doc = parseDocument(readFileSync(manifestFile, "utf8"));
  if (doc.errors.length > 0) throw new Error(`[eval-simulate] ${options.manifest} is not valid YAML: ${doc.errors[0].message}`);
  const api = (doc.getIn(["apis", options.id]) as { toJSON?: () => Json } | undefined)?.toJSON?.() ?? {};
  const recorded = (api.capture ?? {}) as Json & CaptureCorrections & { source?: string; operations?: string[] };
  const source = options.spec ?? recorded.source;
  const operations = options.operations ?? recorded.operations;
  if (!source) throw new Error(`[eval-simulate] name the description with --spec (apis.${options.id}.capture.source is not set)`);
  if (!operations?.length) throw new Error(`[eval-simulate] name the operations with --operations (apis.${options.id}.capture.operations is not set)`);
  // A recorded file source is relative to the manifest; one given on the command line, to the cwd.
  const remote = /^(https?|npm):/.test(source);
  const readFrom = remote || isAbsolute(source) ? source : options.spec ? resolve(source) : resolve(dir, source);
  const corrections: CaptureCorrections = {
    dropNavigationProperties: recorded.dropNavigationProperties,
    dropRequired: recorded.dropRequired,
    addResponses: recorded.addResponses as CaptureCorrections["addResponses"],
  };
  const trimmed = trimDocument(await readDescription(readFrom, dir), operations, corrections);
  const out = resolve(dir, options.out ?? (api.openapi as string | undefined) ?? `api/${options.id}/openapi.yaml`);
  const yamlOut = /\.ya?ml$/.test(out);

  if (options.check) {
    const committed = existsSync(out) ? (parse(readFileSync(out, "utf8")) as Json) : undefined;
    const differing = operations.filter((name) => !committed || operationView(committed, name) !== operationView(trimmed, name));
    if (committed && differing.length === 0 && JSON.stringify(committed) !== JSON.stringify(trimmed)) differing.push("(the document outside its operations)");
    return { file: out, operations, differing };
  }

  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, yamlOut ? stringify(trimmed, { lineWidth: 0, aliasDuplicateObjects: false }) : `${JSON.stringify(trimmed, null, 2)}\n`);
  const recordedSource = remote ? source : relative(dir, readFrom);
  if (!isMap(doc.get("apis"))) doc.set("apis", doc.createNode({}));
  doc.setIn(["apis", options.id, "openapi"], relative(dir, out));
  doc.setIn(["apis", options.id, "capture", "source"], recordedSource);
  doc.setIn(["apis", options.id, "capture", "operations"], doc.createNode(operations));
  // Written as block YAML, however the manifest wrote an empty `apis: {}`.
  for (const path of [["apis"], ["apis", options.id], ["apis", options.id, "capture"], ["apis", options.id, "capture", "operations"]]) {
    const node = doc.getIn(path, true) as { flow?: boolean } | undefined;
    if (node && typeof node === "object") node.flow = false;
  }
  writeFileSync(manifestFile, doc.toString({ lineWidth: 0 }));
  return { file: out, operations };
}
