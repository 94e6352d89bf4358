import type { ArchiveStore } from "../storage/archive-store.js";

/**
 * Archive bytes kept in process, only ever bytes whose sha256 matched (the store checks every
 * read). Archives are content-addressed and written once, so a cached value can never go stale;
 * the cache only needs a size bound (least recently used first out).
 */
export class ArchiveBytesCache {
  private readonly values = new Map<string, Uint8Array>();
  /** Hashes whose stored object this process has seen intact (bounded like the bytes). */
  private readonly verified = new Set<string>();
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
    if (bytes) {
      this.remember(sha256);
      if (bytes.byteLength <= this.maxBytes / 4) this.keep(sha256, bytes);
    }
    return bytes;
  }

  /**
   * Whether the stored object is intact, before a client is sent to it (302 to S3): storage's own
   * checksum when it keeps one, else one verified read; remembered, as the object never changes.
   */
  async isIntact(sha256: string): Promise<boolean> {
    if (this.verified.has(sha256) || this.values.has(sha256)) return true;
    if (await this.store.storageVerified(sha256)) {
      this.remember(sha256);
      return true;
    }
    return (await this.get(sha256)) !== undefined;
  }

  private remember(sha256: string): void {
    if (this.verified.size >= 100_000) this.verified.clear();
    this.verified.add(sha256);
  }

  private keep(sha256: string, bytes: Uint8Array): void {
    this.values.set(sha256, bytes);
    this.totalBytes += bytes.byteLength;
    for (const [key, value] of this.values) {
      if (this.totalBytes <= this.maxBytes) break;
      this.values.delete(key);
      this.totalBytes -= value.byteLength;
    }
  }
}
