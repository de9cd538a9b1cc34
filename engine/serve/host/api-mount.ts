import { type ApiBase, compileApi, handleApiRequest } from "../api/index.js";
import { UnknownSessionError } from "../sessions/index.js";
import type { ApiFake } from "../../author/fakes/index.js";
import { servedIn, type WorldOf } from "./request-world.js";
import { traceApiRequest } from "../telemetry/index.js";

/** Answers one request to an API fake, addressed by path or by Host. */
export type ApiHandler = (request: Request, base: ApiBase) => Promise<Response>;

/**
 * One API fake's handler, built once: its document compiled, every request served in the
 * runtime's transaction in the world the request addresses and left as that world's evidence.
 *
 * @example const api = mountApiFake(fake, worldOf); await api(request, { prefix: "/github", origin });
 */
export function mountApiFake(fake: ApiFake, worldOf: WorldOf, stopping?: AbortSignal): ApiHandler {
  const compiled = compileApi(fake.manifest);
  return async (request, base) => {
    let world: ReturnType<WorldOf>;
    try {
      world = worldOf(request);
    } catch (error) {
      // The session was deleted between routing and this call.
      if (!(error instanceof UnknownSessionError)) throw error;
      return Response.json({ error: "unknown_session", message: error.message, session: error.id }, { status: 404 });
    }
    const { scope, evidence } = world;
    // A call in flight ends when its client goes away or the services close, whichever is first.
    const signal = stopping ? AbortSignal.any([request.signal, stopping]) : request.signal;
    // The evidence is kept inside the request, before its commit: see handleApiRequest's `witness`.
    const { response } = await traceApiRequest(fake.manifest.id, request, () =>
      servedIn(world, () => handleApiRequest(scope, compiled, new Request(request, { signal }), base, (outcome) => evidence.apiCall(outcome, request))),
    );
    return response;
  };
}
