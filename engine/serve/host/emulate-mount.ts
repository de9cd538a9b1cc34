import { createEmulator, defineEmulator, type ServiceName } from "emulate";
import type { ApiBase } from "../api/index.js";
import type { ApiHandler } from "./api-mount.js";

import { FRAMING_HEADERS } from "../api/index.js";

/** Carries how the client addressed the fake through emulate's runtime, which rebuilds requests. */
const BASE_HEADER = "x-eval-simulate-base";
/** Carries which request this is, so its abort signal survives emulate's rebuilding. */
const SIGNAL_HEADER = "x-eval-simulate-request";
let nextRequest = 0;

/**
 * Runs an API fake as an emulate custom emulator (emulate@0.12.2) in-process, without a port of
 * its own: one catch-all middleware hands every request to the fake's own OpenAPI router, which
 * takes what emulate's router cannot (parameter names with dashes, literal colons in paths).
 *
 * @example const { handle, close } = await emulateCustom("github", serve);
 */
export async function emulateCustom(id: string, serve: ApiHandler): Promise<{ handle: ApiHandler; close(): Promise<void> }> {
  const signals = new Map<string, AbortSignal>();
  const definition = defineEmulator({
    name: id,
    // The state lives in the host's store, shared with every other fake: emulate holds none.
    state: () => ({}),
    cors: false,
    setup({ app }) {
      app.use(async (c) => {
        const raw = c.req.raw;
        const [prefix, origin] = JSON.parse(raw.headers.get(BASE_HEADER) ?? '["",""]') as [string, string];
        const signal = signals.get(raw.headers.get(SIGNAL_HEADER) ?? "");
        const headers = new Headers(raw.headers);
        headers.delete(BASE_HEADER);
        headers.delete(SIGNAL_HEADER);
        const body = raw.method === "GET" || raw.method === "HEAD" ? undefined : await raw.arrayBuffer();
        return serve(new Request(raw.url, { method: raw.method, headers, body, ...(signal ? { signal } : {}) }), { prefix, origin });
      });
    },
  });
  const emulator = await createEmulator({ service: definition, listen: false });
  return {
    handle: async (request, base: ApiBase) => {
      const key = String(++nextRequest);
      signals.set(key, request.signal);
      const headers = new Headers(request.headers);
      headers.set(BASE_HEADER, JSON.stringify([base.prefix, base.origin]));
      headers.set(SIGNAL_HEADER, key);
      try {
        return await emulator.fetch(new Request(request, { headers }));
      } finally {
        signals.delete(key);
      }
    },
    close: () => emulator.close(),
  };
}

/**
 * One of emulate's built-in services (github, google, slack, …), seeded from the world's state
 * for the fake's id. Built-ins always listen on a port of their own, so it listens on loopback
 * and the host proxies `/<id>/...` to it, rewriting the links it answers with to the base the
 * client used.
 *
 * @example const google = await emulateBuiltIn("google", seed);
 */
export async function emulateBuiltIn(service: string, seed: unknown): Promise<{ handle: ApiHandler; close(): Promise<void> }> {
  const emulator = await createEmulator({ service: service as ServiceName, port: 0, hostname: "127.0.0.1", seed: (seed ?? {}) as Record<string, unknown> });
  const own = emulator.url.replace(/\/$/, "");
  // It says "localhost", which may resolve to ::1 while it listens on 127.0.0.1.
  const target = own.replace("//localhost:", "//127.0.0.1:");
  const origins = [own, target];
  const rewrite = (text: string, base: string) => origins.reduce((out, from) => out.split(from).join(base), text);
  return {
    handle: async (request, base) => {
      const url = new URL(request.url);
      const path = url.pathname.slice(base.prefix.length) || "/";
      const headers = new Headers();
      request.headers.forEach((value, name) => {
        if (name !== "host" && !FRAMING_HEADERS.has(name)) headers.append(name, value);
      });
      const safe = request.method === "GET" || request.method === "HEAD";
      const body = safe ? undefined : await request.arrayBuffer();
      const send = () => fetch(`${target}${path}${url.search}`, { method: request.method, headers, body, redirect: "manual", signal: request.signal });
      // A kept-alive connection the built-in's server has just closed fails before anything is
      // sent: a read is retried once on a fresh connection; a write is not, it may have landed.
      const answer = await (safe ? send().catch(() => send()) : send());
      const clientBase = base.origin + base.prefix;
      const outgoing = new Headers();
      answer.headers.forEach((value, name) => {
        if (name !== "set-cookie") outgoing.set(name, rewrite(value, clientBase));
      });
      for (const cookie of answer.headers.getSetCookie()) outgoing.append("set-cookie", cookie);
      // fetch has decoded the body already; its length and encoding no longer describe it.
      outgoing.delete("content-encoding");
      outgoing.delete("content-length");
      const type = answer.headers.get("content-type") ?? "";
      const answered = /json|text|xml|html/.test(type) ? rewrite(await answer.text(), clientBase) : answer.body;
      return new Response(answer.status === 204 || answer.status === 304 ? null : answered, { status: answer.status, headers: outgoing });
    },
    close: () => emulator.close(),
  };
}
