import type { ServerResponse } from "node:http";

/**
 * Resolves true once `res` emits `event` (`drain`: it may be written again; `finish`: it has gone
 * to the client) or its socket closes, false past `ms`: how the port waits on a client without
 * buffering for it or waiting for ever.
 *
 * @example if (!res.write(chunk) && !(await responseWait(res, "drain", 30_000))) res.destroy();
 */
export function responseWait(res: ServerResponse, event: "drain" | "finish", ms: number): Promise<boolean> {
  if (event === "finish" && (res.writableFinished || res.destroyed)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      res.off(event, ready);
      res.off("close", ready);
      resolve(value);
    };
    const ready = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    res.once(event, ready);
    res.once("close", ready);
  });
}
