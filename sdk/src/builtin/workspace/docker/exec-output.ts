import { BoundedBytes } from "../bounded-bytes.js";

/** How much of the end of stderr is kept whatever the limit: enough for the exit-status line the run's shell prints last. */
const TAIL_BYTES = 64;

/**
 * The output of an exec started without a terminal: the engine multiplexes stdout and stderr into
 * frames of an 8-byte header (stream 1 or 2, three zero bytes, a big-endian length) and the data.
 * Frames may arrive split across chunks; each stream keeps at most `limit` bytes, and the last
 * bytes of stderr are kept apart (`stderrTail`).
 */
export class ExecOutput {
  private pending: Buffer = Buffer.alloc(0);
  private readonly streams: Record<1 | 2, BoundedBytes>;
  private tail: Buffer = Buffer.alloc(0);

  constructor(limit: number) {
    this.streams = { 1: new BoundedBytes(limit), 2: new BoundedBytes(limit) };
  }

  push(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 8) {
      const size = this.pending.readUInt32BE(4);
      if (this.pending.length < 8 + size) return;
      const kind = this.pending[0];
      const data = this.pending.subarray(8, 8 + size);
      // Stream 0 (stdin echo) and unknown kinds carry nothing a caller reads.
      if (kind === 1 || kind === 2) this.streams[kind].push(data);
      if (kind === 2) this.tail = Buffer.concat([this.tail, data]).subarray(-TAIL_BYTES);
      this.pending = this.pending.subarray(8 + size);
    }
  }

  get stdout(): Buffer {
    return this.streams[1].bytes();
  }

  get stderr(): Buffer {
    return this.streams[2].bytes();
  }

  /** The last bytes written to stderr, kept even past the limit. */
  get stderrTail(): Buffer {
    return this.tail;
  }
}
