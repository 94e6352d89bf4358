import type { ToolCapabilities } from "@agent-tools/sdk/capabilities";
import type { PlatformArchive, ToolPlatform } from "@agent-tools/sdk/tool-spec";
import type { StoredEmbedding } from "./search-embedding.js";
import type { ToolEntry } from "./tool-entry.js";

/**
 * A ToolEntry as the registry stores and publishes it: the 19 ToolEntry fields (defaults filled)
 * plus the fields the registry owns. `tool_source_code_link` is not stored: it is computed per
 * request from the origin the client reached (`present-entry.ts`).
 */
export interface RegistryOwnedFields {
  version: string;
  /** Hex sha256 of `tool.zip`: also its S3 key. */
  tool_archive_sha256: string;
  /** Subresource-integrity form: `sha512-<base64>`. */
  tool_archive_integrity: string;
  tool_archive_size: number;
  published_at: string;
  updated_at: string;
  /**
   * What the tool may do beyond the default sandbox profile (docs/sandbox.md), as the spec
   * declared it and the registry validated it; absent when it declares nothing.
   */
  tool_capabilities?: ToolCapabilities;
  /** The platforms a binary tool is built for, as the spec declared them; absent when it declares none (docs/authoring.md#platforms). */
  tool_platforms?: ToolPlatform[];
  /** One archive per declared platform, `tool.zip`'s first (the same as `tool_archive_sha256`); absent without platforms. */
  tool_platform_archives?: PlatformArchive[];
  /** The publisher that owns the tool id; absent on entries stored before ownership (`admin`). */
  owner?: string;
  /** Absent on entries stored before lifecycle statuses: `active` (docs/design/publisher-trust.md). */
  status?: VersionStatus;
  /** The deprecation message or yank reason, when not active. */
  status_message?: string;
  /** The publisher's ed25519 signature over the release (docs/design/publisher-trust.md, "Signatures"). */
  signature?: EntrySignature;
  /** The tool's vector for hybrid search, when the registry embeds tools (search-embedding.ts). */
  tool_search_embedding?: StoredEmbedding;
}

export type VersionStatus = "active" | "deprecated" | "yanked";

export interface EntrySignature {
  /** `sha256:` + hex sha256 of the public key's SPKI DER bytes. */
  key_id: string;
  /** Base64 ed25519 signature. */
  value: string;
}

export type PublishedEntry = Omit<ToolEntry, "tool_source_code_link"> & RegistryOwnedFields;

/**
 * The archives of a version besides `tool.zip` (`tool_archive_sha256`), each once: the ones that need
 * reference items of their own (`functions/storage/platform-archive-references.ts`).
 */
export function furtherArchives(entry: Pick<PublishedEntry, "tool_archive_sha256" | "tool_platform_archives">): string[] {
  const hashes = (entry.tool_platform_archives ?? []).map((archive) => archive.sha256);
  return [...new Set(hashes)].filter((sha256) => sha256 !== entry.tool_archive_sha256);
}
