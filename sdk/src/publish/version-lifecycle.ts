import { registryRequest, type RegistryWriteOptions } from "./registry-request.js";

/** A version's status change (docs/design/publisher-trust.md, "Version lifecycle"). */
export type VersionStatusChange = { status: "deprecated"; message: string } | { status: "yanked"; reason: string } | { status: "active" };

/**
 * Deprecates, yanks or restores one version (`PATCH /tools/{id}/versions/{v}`); answers the
 * version's entry. "Latest" skips yanked versions; exact pins keep working.
 *
 *   await setVersionStatus("text-stats", "1.2.0", { status: "yanked", reason: "leaks the API key" }, { registryUrl, token });
 */
export function setVersionStatus(
  toolId: string,
  version: string,
  change: VersionStatusChange,
  options: RegistryWriteOptions,
): Promise<Record<string, unknown>> {
  return registryRequest(options, "PATCH", versionPath(toolId, version), JSON.stringify(change), { "content-type": "application/json" });
}

/** Deletes one version (`DELETE /tools/{id}/versions/{v}`); latest moves to the next highest. */
export function deleteToolVersion(toolId: string, version: string, options: RegistryWriteOptions): Promise<Record<string, unknown>> {
  return registryRequest(options, "DELETE", versionPath(toolId, version));
}

function versionPath(toolId: string, version: string): string {
  return `/tools/${encodeURIComponent(toolId)}/versions/${encodeURIComponent(version)}`;
}
