import type { ToolRecord } from "../registry-client/tool-record.js";
import { ToolPlatformError } from "../tool-platform-error.js";
import { hostPlatform, platformFits, platformKey, type PlatformArchive, type ToolPlatform } from "../tool-spec/tool-platforms.js";

/**
 * The entry as the archive that fits `host` describes it: for a binary tool built for several
 * platforms (`tool_platform_archives`, docs/authoring.md#platforms), that platform's sha256, size
 * and download link take the place of tool.zip's, so the cache verifies and unpacks exactly the
 * bytes this host runs. An entry without platforms is returned as it is.
 */
export function archiveForHost(entry: ToolRecord, host: ToolPlatform = hostPlatform()): ToolRecord {
  const archives = entry.tool_platform_archives;
  if (!Array.isArray(archives) || archives.length === 0) return entry;
  const fitting = (archives as PlatformArchive[]).find((archive) => platformFits(archive.platform, host));
  if (fitting === undefined)
    throw noArchiveFits(
      entry.tool_id,
      (archives as PlatformArchive[]).map((archive) => archive.platform),
      host,
    );
  return {
    ...entry,
    tool_archive_sha256: fitting.sha256,
    tool_archive_integrity: fitting.integrity,
    tool_archive_size: fitting.size,
    tool_source_code_link: fitting.url ?? `${entry.tool_source_code_link ?? ""}?platform=${encodeURIComponent(fitting.key)}`,
  };
}

/** The first declared platform that fits `host` (a local folder's `platforms/<key>/`), or the error saying none does. */
export function platformForHost(toolId: string, declared: readonly ToolPlatform[], host: ToolPlatform = hostPlatform()): ToolPlatform {
  const fitting = declared.find((platform) => platformFits(platform, host));
  if (fitting === undefined) throw noArchiveFits(toolId, declared, host);
  return fitting;
}

function noArchiveFits(toolId: string, available: readonly ToolPlatform[], host: ToolPlatform): ToolPlatformError {
  return new ToolPlatformError(
    toolId,
    `it is built for ${available.map(platformKey).join(", ")} only. Run it on one of those, ` +
      `or ask its publisher for a ${platformKey(host)} build (tool_platforms in its spec.json).`,
    host,
    [...available],
  );
}
