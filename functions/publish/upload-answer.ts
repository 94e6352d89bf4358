import { MISSING_VERSION_WARNING } from "@agent-tools/sdk/tool-spec";
import type { PublishedEntry } from "../entry/published-entry.js";

/**
 * The 200 body of both upload paths: the Python registry's message and id, the version, and
 * `warnings` when the tool published but probably not as meant (no version in spec.json).
 */
export function uploadAnswer(entry: PublishedEntry): Record<string, unknown> {
  const declared = entry.tool_metadata.version;
  const warnings = declared === undefined || declared === null || declared === "" ? [MISSING_VERSION_WARNING] : [];
  return {
    message: "Tool uploaded successfully",
    tool_id: entry.tool_id,
    version: entry.version,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
