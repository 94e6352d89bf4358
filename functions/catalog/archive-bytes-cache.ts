import type { ArchiveStore } from "../storage/archive-store.js";

/**
 * Archive bytes kept in process. Archives are content-addressed, so a cached value can never go
 * stale; the cache only needs a size bound (least recently used first out).
 */
export class ArchiveBytesCache {
  private readonly values = new Map<string, Uint8Array>();
  private totalBytes = 0;

  constructor(
    private readonly store: ArchiveStore,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  async get(sha256: string): Promise<Uint8Array | undefined> {
    const cached = this.values.get(sha256);
    if (cached) {
      this.values.delete(sha256);
      this.values.set(sha256, cached);
      return cached;
    }
    const bytes = await this.store.get(sha256);
    if (bytes && bytes.byteLength <= this.maxBytes / 4) this.remember(sha256, bytes);
    return bytes;
  }

  private remember(sha256: string, bytes: Uint8Array): void {
    this.values.set(sha256, bytes);
    this.totalBytes += bytes.byteLength;
    for (const [key, value] of this.values) {
      if (this.totalBytes <= this.maxBytes) break;
      this.values.delete(key);
      this.totalBytes -= value.byteLength;
    }
  }
}
