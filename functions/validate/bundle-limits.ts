import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from "@agent-tools/sdk/archive";

export interface BundleLimits {
  /** Largest bundle zip accepted, in bytes (413 above). */
  maxBundleBytes: number;
  /** Largest stored entry (spec fields + tool.md as JSON): one DynamoDB item holds at most 400 KB. */
  maxEntryJsonBytes: number;
  /** Limits applied to `tool.zip` (and, scaled, to the bundle zip around it). */
  toolArchive: ArchiveLimits;
}

export const DEFAULT_BUNDLE_LIMITS: Readonly<BundleLimits> = Object.freeze({
  maxBundleBytes: DEFAULT_ARCHIVE_LIMITS.maxTotalBytes,
  maxEntryJsonBytes: 300 * 1024,
  toolArchive: DEFAULT_ARCHIVE_LIMITS,
});

export type BundleLimitOverrides = Partial<Omit<BundleLimits, "toolArchive">> & { toolArchive?: Partial<ArchiveLimits> };

export function resolveBundleLimits(overrides: BundleLimitOverrides = {}): BundleLimits {
  return { ...DEFAULT_BUNDLE_LIMITS, ...overrides, toolArchive: { ...DEFAULT_BUNDLE_LIMITS.toolArchive, ...overrides.toolArchive } };
}

/** The bundle zip holds three files: tool.zip (bounded by the tool's own total) and two small texts. */
export function bundleArchiveLimits(limits: BundleLimits): ArchiveLimits {
  return {
    maxEntries: 64,
    maxEntryBytes: limits.toolArchive.maxTotalBytes,
    maxTotalBytes: limits.toolArchive.maxTotalBytes + 2 * limits.maxEntryJsonBytes,
    maxCompressionRatio: limits.toolArchive.maxCompressionRatio,
  };
}
