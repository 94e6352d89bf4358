/**
 * "An emulator's write failed for want of space", from the emulator threads to the server's
 * `DiskSpace` (docs/durability.md, "Out of space"). Shared memory rather than a message: the
 * emulator raises it before it answers the failed write, so the next write request, which can only
 * come after that answer, always finds it raised (a message could arrive after the answer).
 */
export class DiskFullSignal {
  private readonly flag: Int32Array;

  /** A new signal, or (in an emulator thread) the one whose `buffer` was handed over. */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.flag = new Int32Array(buffer);
  }

  raise(): void {
    Atomics.store(this.flag, 0, 1);
  }

  /** Whether it was raised since the last take; lowers it. */
  take(): boolean {
    return Atomics.exchange(this.flag, 0, 0) === 1;
  }
}
