/**
 * Runs asynchronous steps one after another per key, within this process: a step for a key starts once the previous
 * step for that key has settled (fulfilled or not); steps for other keys run alongside.
 *
 * Why: a conditional update ("add one while fewer than N") is atomic on MongoDB, but the embedded FerretDB v1 reads
 * the matching document and then writes it in two steps, so simultaneous requests of one person could all see room.
 * The embedded default runs one replica of each service, so taking turns in the process closes that gap; with
 * several replicas the limits use MongoDB or Redis, where the update itself is atomic.
 */
export class TurnsByKey {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, step: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(step);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a step running or waiting: none once all have settled (nothing is kept per key). */
  get pending(): number {
    return this.tails.size;
  }
}
