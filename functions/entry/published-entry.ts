import type { ToolCapabilities } from "@agent-tools/sdk/capabilities";
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
}

export type PublishedEntry = Omit<ToolEntry, "tool_source_code_link"> & RegistryOwnedFields;
