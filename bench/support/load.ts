import { Agent, request } from "node:http";

/** One subject under load: where to POST, and a label. */
export interface Target {
  label: string;
  url: string;
}

/** What a run measured. */
export interface RunResult {
  callsPerSecond: number;
  latenciesMs: number[];
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** POSTs one body and resolves with the response text; rejects on a non-2xx status. */
export function post(url: string, body: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers: { "content-type": "application/json", ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => ((res.statusCode ?? 0) < 300 ? resolve(text) : reject(new Error(`${res.statusCode} ${text.slice(0, 200)}`))));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * `calls` requests made by `concurrency` workers, each waiting for its answer before sending the
 * next; returns the rate and every latency.
 */
export async function drive(send: () => Promise<string>, calls: number, concurrency: number): Promise<RunResult> {
  const latenciesMs: number[] = [];
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) {
        next++;
        const t = process.hrtime.bigint();
        await send();
        latenciesMs.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { callsPerSecond: calls / seconds, latenciesMs };
}

export const median = (values: number[]) => quantile(values, 0.5);

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** The JSON-RPC body of a tools/call, and the headers of the 2025-11-25 era (stateless). */
export function toolsCall(name: string, args: Record<string, unknown>, id = 1): { body: string; headers: Record<string, string> } {
  return {
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }),
    headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
  };
}
