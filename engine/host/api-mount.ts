import { type ApiBase, compileApi, handleApiRequest } from "../api/index.js";
import type { ApiScope } from "../api/handle-request.js";
import type { Evidence } from "./evidence.js";
import type { ApiFake } from "./fakes.js";

/** Answers one request to an API fake, addressed by path or by Host. */
export type ApiHandler = (request: Request, base: ApiBase) => Promise<Response>;

/**
 * One API fake's handler, built once: its document compiled, every request served in the
 * runtime's transaction and left as evidence (journal, record).
 *
 * @example const api = mountApiFake("github", fake, scope, evidence); await api(request, { prefix: "/github", origin });
 */
export function mountApiFake(fake: ApiFake, scope: ApiScope, evidence: Evidence, stopping?: AbortSignal): ApiHandler {
  const compiled = compileApi(fake.manifest);
  return async (request, base) => {
    // A call in flight ends when its client goes away or the services close, whichever is first.
    const signal = stopping ? AbortSignal.any([request.signal, stopping]) : request.signal;
    // The evidence is kept inside the request, before its commit: see handleApiRequest's `witness`.
    const { response } = await handleApiRequest(scope, compiled, new Request(request, { signal }), base, (outcome) => evidence.apiCall(outcome, request));
    return response;
  };
}
