/**
 * A cassette: one trial's model traffic, each request in its normalised form with the answer it
 * got, kept beside the evals file as `<evals>.cassettes/<case>/trial-<k>.json`. Written whole and
 * atomically, as indented JSON with the requests' keys sorted, so the same traffic writes the
 * same bytes and a re-recording reads as a diff in review.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { readRegularFile } from "../../core/files/index.js";
import type { NormalisedRequest } from "./normalised-request.js";

/** The cassette format's version. */
export const CASSETTE_VERSION = 1;

/** The most bytes a cassette may hold when read. */
export const MAX_CASSETTE_BYTES = 64 * 1024 * 1024;

/** An answer as recorded: its status and content type, and its body as JSON or (a stream) as text. */
export interface RecordedResponse {
  status: number;
  contentType: string;
  /** A JSON answer's body. */
  json?: unknown;
  /** Any other answer's body (server-sent events) as the provider sent it, secrets redacted. */
  text?: string;
}

export interface Interaction {
  request: NormalisedRequest;
  response: RecordedResponse;
}

export interface Cassette {
  version: typeof CASSETTE_VERSION;
  case: string;
  trial: number;
  interactions: Interaction[];
}

/**
 * Where a trial's cassette is kept.
 *
 * @example cassettePath("evals/evals.yaml", "close-ticket", 0) // "evals/evals.cassettes/close-ticket/trial-0.json"
 */
export function cassettePath(evalsFile: string, caseId: string, iteration: number): string {
  const stem = basename(evalsFile, extname(evalsFile));
  return join(dirname(evalsFile), `${stem}.cassettes`, caseId, `trial-${iteration}.json`);
}

/** A cassette's text: the same cassette, the same bytes. */
export const cassetteText = (cassette: Cassette) => `${JSON.stringify(cassette, null, 2)}\n`;

/**
 * Writes a cassette atomically (a run killed mid-write leaves the old one). A cassette past
 * `maxBytes` (what a replay reads) is not written: it throws, naming the file and its size,
 * rather than keep a recording no replay could read.
 *
 * @example writeCassette(cassettePath(file, "close-ticket", 0), cassette);
 */
export function writeCassette(file: string, cassette: Cassette, maxBytes = MAX_CASSETTE_BYTES): void {
  const text = cassetteText(cassette);
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes)
    throw new Error(`[eval-simulate] the cassette ${file} would hold ${bytes} bytes, past the ${maxBytes} a replay reads; it was not written`);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/**
 * A trial's cassette, undefined when there is none; throws for one that cannot be read or is not a cassette.
 *
 * @example const cassette = readCassette(cassettePath(file, "close-ticket", 0));
 */
export function readCassette(file: string): Cassette | undefined {
  const read = readRegularFile(file, MAX_CASSETTE_BYTES);
  if (!read.ok) {
    if (read.code === "ENOENT") return undefined;
    throw new Error(`[eval-simulate] the cassette ${file} cannot be read: ${read.reason}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch (error) {
    throw new Error(`[eval-simulate] the cassette ${file} is not JSON: ${(error as Error).message}; record it again with --record-models`);
  }
  const cassette = value as Partial<Cassette> | null;
  if (!cassette || cassette.version !== CASSETTE_VERSION || !Array.isArray(cassette.interactions))
    throw new Error(`[eval-simulate] ${file} is not a version ${CASSETTE_VERSION} cassette; record it again with --record-models`);
  for (const [i, interaction] of cassette.interactions.entries()) {
    const ok = interaction && typeof interaction === "object" && interaction.request && typeof interaction.response?.status === "number";
    if (!ok) throw new Error(`[eval-simulate] the cassette ${file}: interaction ${i + 1} has no request or response; record it again with --record-models`);
    // Checked here, so an edited answer makes the trial not run naming it, rather than failing each request it matches.
    if (!answerable(interaction.response))
      throw new Error(
        `[eval-simulate] the cassette ${file}: interaction ${i + 1} has no answer a provider could give (status 200-599, a content type, a JSON or text body); record it again with --record-models`,
      );
  }
  return cassette as Cassette;
}

/** Whether a recorded answer can be sent as it is: a status a Response takes, a header-safe content type, a body. */
function answerable(response: RecordedResponse): boolean {
  const { status, contentType, json, text } = response;
  if (!Number.isInteger(status) || status < 200 || status > 599) return false;
  if (typeof contentType !== "string" || /[^\t\x20-\x7e\x80-\xff]/.test(contentType)) return false;
  return json !== undefined || text === undefined || typeof text === "string";
}
