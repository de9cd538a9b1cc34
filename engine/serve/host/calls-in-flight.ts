/**
 * The calls a world is serving, counted from the moment a request is routed to it: a session
 * being freed waits for every one of them (those still in a fault's latency or a stub's delay
 * too, which its store's queue has not seen yet), so none lands after its id is taken again.
 */
export class CallsInFlight {
  private count = 0;
  private waiting: Array<() => void> = [];

  /**
   * Runs `work` as one of the world's calls.
   *
   * @example const outcome = await inFlight.run(() => callTool(scope, fake, name, args, signal));
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.count++;
    try {
      return await work();
    } finally {
      if (--this.count === 0) for (const done of this.waiting.splice(0)) done();
    }
  }

  /** Resolves once no call is running (at once when none is). */
  settled(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }
}
