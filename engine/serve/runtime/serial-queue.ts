/**
 * Runs tasks one at a time in arrival order: concurrent calls to one fake are applied in turn,
 * so no update is lost. A task that fails does not stop the ones after it.
 *
 * @example const queue = new SerialQueue(); await Promise.all([queue.run(a), queue.run(b)]);
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  run<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    const result = this.tail.then(task);
    this.tail = result.then(
      () => this.pending--,
      () => this.pending--,
    );
    return result;
  }

  /** Tasks queued or running. */
  get size(): number {
    return this.pending;
  }

  /** Resolves when every task queued so far has settled. */
  async idle(): Promise<void> {
    await this.tail;
  }
}
