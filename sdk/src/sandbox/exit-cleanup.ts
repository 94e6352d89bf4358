/**
 * What a process must release even when it exits without closing it: detached workers (their own
 * process group, so they outlive the agent otherwise) and private folders. The exit hook is
 * installed on the first `add`, once per set.
 */
export class ExitCleanup<T> {
  private readonly live = new Set<T>();
  private hooked = false;

  constructor(private readonly release: (item: T) => void) {}

  add(item: T): void {
    this.live.add(item);
    if (this.hooked) return;
    this.hooked = true;
    process.once("exit", () => {
      for (const remaining of this.live) this.release(remaining);
    });
  }

  /** The item was released by its owner: nothing left to do at exit. */
  delete(item: T): void {
    this.live.delete(item);
  }
}
