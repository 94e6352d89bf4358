/**
 * An in-process read cache that is dropped whenever the catalog revision changes. The revision
 * is read at most once per `revalidateMs`, in the background, so a process converges with writes
 * made by other processes (other Lambda instances) within about that time, and with its own
 * writes immediately (`invalidate`). Values are cached as promises, so concurrent misses share
 * one storage read.
 */
export class RevisionCache {
  private values = new Map<string, Promise<unknown>>();
  private revision: string | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly readRevision: () => Promise<string>,
    private readonly revalidateMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async remember<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (performance.now() - this.checkedAt >= this.revalidateMs) {
      // With a window, readers never wait for the check (stale by at most one check's latency);
      // with 0, or before the first check, every read is confirmed against the revision.
      const check = this.revalidate();
      if (this.revalidateMs === 0 || this.revision === undefined) await check;
      else check.catch(() => undefined);
    }
    let value = this.values.get(key) as Promise<T> | undefined;
    if (value === undefined) {
      if (this.values.size >= this.maxEntries) this.values.clear();
      const values = this.values;
      value = load();
      values.set(key, value);
      value.catch(() => values.delete(key));
    }
    return value;
  }

  /** After this process wrote: forget everything, and re-read the revision on the next read. */
  invalidate(): void {
    this.values = new Map();
    this.checkedAt = Number.NEGATIVE_INFINITY;
  }

  private revalidate(): Promise<void> {
    this.checking ??= this.readRevision()
      .then((revision) => {
        if (revision !== this.revision) {
          this.values = new Map();
          this.revision = revision;
        }
        this.checkedAt = performance.now();
      })
      .finally(() => {
        this.checking = undefined;
      });
    return this.checking;
  }
}
