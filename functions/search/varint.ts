/**
 * Unsigned integers as LEB128 varints (7 bits a byte, low first): how postings and a tool's term
 * list are stored (inverted-index.ts), so that most numbers (row id gaps, counts) take one byte.
 */
export class VarintWriter {
  private bytes = new Uint8Array(64);
  private length = 0;

  write(value: number): void {
    if (this.length + 5 > this.bytes.length) this.grow();
    let rest = value >>> 0;
    while (rest >= 0x80) {
      this.bytes[this.length++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.bytes[this.length++] = rest;
  }

  /** The bytes written (a copy, so the writer can be reused). */
  finish(): Uint8Array {
    const out = this.bytes.slice(0, this.length);
    this.length = 0;
    return out;
  }

  private grow(): void {
    const grown = new Uint8Array(this.bytes.length * 2);
    grown.set(this.bytes);
    this.bytes = grown;
  }
}

/** Reads the varints of `bytes` one after another. */
export class VarintReader {
  private at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  read(): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = this.bytes[this.at++];
      if (byte === undefined) throw new RangeError("truncated varint");
      value |= (byte & 0x7f) << shift;
      if (byte < 0x80) return value >>> 0;
      shift += 7;
      if (shift > 28) throw new RangeError("varint longer than 32 bits");
    }
  }
}
