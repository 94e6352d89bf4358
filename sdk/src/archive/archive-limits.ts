/** Bounds applied while reading an archive, before anything is inflated where the format allows. */
export interface ArchiveLimits {
  /** Most entries (files, folders, links) an archive may hold. */
  maxEntries: number;
  /** Largest uncompressed size of one file, in bytes. */
  maxEntryBytes: number;
  /** Largest uncompressed size of all files together, in bytes. */
  maxTotalBytes: number;
  /** Largest uncompressed/compressed ratio (zip bombs reach 1000:1; real code stays under 20:1). */
  maxCompressionRatio: number;
}

export const DEFAULT_ARCHIVE_LIMITS: Readonly<ArchiveLimits> = Object.freeze({
  maxEntries: 10_000,
  maxEntryBytes: 128 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxCompressionRatio: 200,
});

/**
 * Below this uncompressed size the ratio is not checked: tiny, repetitive files (an empty
 * tar is 10 KiB of zeros that gzip to 30 bytes) legitimately compress far beyond any bomb ratio.
 */
export const RATIO_CHECK_FLOOR_BYTES = 1024 * 1024;

export function resolveArchiveLimits(limits: Partial<ArchiveLimits> = {}): ArchiveLimits {
  return { ...DEFAULT_ARCHIVE_LIMITS, ...limits };
}
