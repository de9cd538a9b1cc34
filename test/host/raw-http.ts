import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";

/** A JSON-RPC tools/call as raw HTTP/1.1 bytes, as a pipelining client writes it. */
export function toolCallBytes(port: number, name: string, args: Record<string, unknown> = {}, id = 1): string {
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
  return (
    `POST /notes/mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n` +
    `accept: application/json, text/event-stream\r\nmcp-protocol-version: 2025-11-25\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** Opens a loopback connection that is connected (or has failed) when the promise resolves. */
export function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/**
 * Writes raw bytes on a fresh connection and collects what comes back until the server closes
 * it, `quietMs` pass without a byte, or `maxMs` pass: whichever comes first.
 */
export function exchange(
  port: number,
  bytes: string | Buffer,
  options: { quietMs?: number; maxMs?: number } = {},
): Promise<{ text: string; closedByServer: boolean }> {
  const { quietMs = 400, maxMs = 5_000 } = options;
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let closedByServer = false;
    const finish = () => {
      clearTimeout(quiet);
      clearTimeout(limit);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString("latin1"), closedByServer });
    };
    let quiet = setTimeout(finish, quietMs);
    const limit = setTimeout(finish, maxMs);
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      clearTimeout(quiet);
      quiet = setTimeout(finish, quietMs);
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      closedByServer = true;
      finish();
    });
    socket.write(bytes);
  });
}

/** The status codes of every response in a raw HTTP/1.1 byte stream, in order. */
export function statuses(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
}

/** The resident memory of a process in MiB, from /proc. */
export function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}

/** Milliseconds a promise takes to settle, with its value. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}
