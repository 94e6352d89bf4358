/** Keeps at most `limit` bytes of a stream (a process's stdout or stderr); the rest is dropped. */
export class BoundedBytes {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    if (this.size >= this.limit) return;
    const kept = chunk.subarray(0, this.limit - this.size);
    this.chunks.push(kept);
    this.size += kept.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  text(): string {
    return this.bytes().toString("utf8");
  }
}
