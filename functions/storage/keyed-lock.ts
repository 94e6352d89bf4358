/**
 * Runs operations on the same key one after another (different keys run freely). Archive
 * objects are only ever touched by this process in the embedded default, and s3rver is not
 * atomic per object: a write truncates the file that a concurrent read or HEAD is reading.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, operation: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(operation, operation);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
