/**
 * Keeps only the last `limit` characters of a stream, so a tool printing megabytes costs bounded
 * memory while its final lines (usually the useful ones) stay available for error messages.
 */
export class OutputTail {
  private chunks: string[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  push(text: string): void {
    this.chunks.push(text);
    this.length += text.length;
    if (this.length > this.limit * 2) this.compact();
  }

  text(): string {
    this.compact();
    return this.chunks[0] ?? "";
  }

  private compact(): void {
    const joined = this.chunks.join("");
    const kept = joined.length > this.limit ? joined.slice(joined.length - this.limit) : joined;
    this.chunks = kept === "" ? [] : [kept];
    this.length = kept.length;
  }
}
