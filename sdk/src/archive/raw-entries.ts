import { ArchiveError } from "./archive-error.js";
import type { RawArchiveEntry } from "./archive-entry.js";
import { hasUstarMagic, type ArchiveFormat } from "./archive-format.js";
import { RATIO_CHECK_FLOOR_BYTES, type ArchiveLimits } from "./archive-limits.js";
import { inflateBounded } from "./bounded-inflate.js";
import { readTarEntries } from "./tar-reader.js";
import { readZipEntries } from "./zip-reader.js";

/** Tar headers and padding on top of the file data: two blocks per entry plus the end blocks. */
const TAR_OVERHEAD_PER_ENTRY = 1024;
const TAR_TRAILER = 20 * 1024;

/** The entries of an archive in `format`, not yet judged; tar.gz is inflated under the size and ratio limits. */
export function readRawEntries(bytes: Uint8Array, format: ArchiveFormat, limits: ArchiveLimits): RawArchiveEntry[] {
  switch (format) {
    case "zip":
      return readZipEntries(bytes, limits.maxEntries);
    case "tar":
      return readTarEntries(bytes, limits.maxEntries);
    case "tar.gz":
      return readTarEntries(gunzipTar(bytes, limits), limits.maxEntries);
  }
}

function gunzipTar(bytes: Uint8Array, limits: ArchiveLimits): Uint8Array {
  const cap = limits.maxTotalBytes + limits.maxEntries * TAR_OVERHEAD_PER_ENTRY + TAR_TRAILER;
  const tar = inflateBounded(bytes, "gzip", (produced) => {
    if (produced > cap) {
      throw new ArchiveError(
        "ARCHIVE_TOTAL_TOO_LARGE",
        `The tar.gz unpacks to more than ${limits.maxTotalBytes} bytes, the ` +
          `limit for a tool. Ship less in code/ (no caches, no build outputs).`,
      );
    }
    if (produced > RATIO_CHECK_FLOOR_BYTES && produced / bytes.length > limits.maxCompressionRatio) {
      throw new ArchiveError(
        "ARCHIVE_COMPRESSION_RATIO",
        `The tar.gz expands more than ${limits.maxCompressionRatio} times its ${bytes.length} compressed bytes: it ` +
          `looks like a decompression bomb. Real code does not compress this well; remove padding or generated data.`,
      );
    }
  });
  const emptyTar = tar.subarray(0, 512).every((byte) => byte === 0);
  if (!emptyTar && !hasUstarMagic(tar, 0)) {
    throw new ArchiveError(
      "ARCHIVE_UNSUPPORTED_FORMAT",
      "The gzip file does not contain a tar archive (a single gzipped file?). Pack the folder instead: `tar czf tool.zip code`.",
    );
  }
  return tar;
}
