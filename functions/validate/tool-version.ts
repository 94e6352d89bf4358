import semver from "semver";
import { MAX_VERSION_LENGTH } from "@agent-tools/sdk/tool-spec";
import { isPlainObject } from "../entry/field-types.js";

export { MAX_VERSION_LENGTH };
export const DEFAULT_VERSION = "0.0.0";

/** `tool_metadata.version` of a spec that passed `specProblems`, as normalised semver (`v1.2.3` → `1.2.3`); none means `0.0.0`. */
export function versionOf(spec: Record<string, unknown>): string {
  const metadata = spec.tool_metadata;
  const version = isPlainObject(metadata) ? metadata.version : undefined;
  return typeof version === "string" ? (semver.valid(version) ?? DEFAULT_VERSION) : DEFAULT_VERSION;
}
