import type { BundleLimitOverrides } from "../bundle/bundle-limits.js";
import { validateBundle } from "../bundle/validate-bundle.js";
import type { PublishedEntry } from "../catalog/published-entry.js";
import { RegistryError } from "../http/registry-error.js";
import type { RegistryDeps } from "../registry-deps.js";
import { VersionExistsError } from "../storage/entry-store.js";
import { recordCatalogChange } from "../catalog/record-catalog-change.js";
import { removeArchiveIfUnreferenced } from "../catalog/remove-unreferenced-archive.js";
import { archiveDigest } from "./archive-digest.js";
import { assertToolIdNotReserved } from "./reserved-tool-ids.js";

export type PublishDeps = Pick<RegistryDeps, "entries" | "archives"> & Partial<Pick<RegistryDeps, "onCatalogChange">> & {
  /** Bundle limits (e.g. `maxBundleBytes`); the validator's defaults otherwise. */
  limits?: BundleLimitOverrides;
  now?: () => Date;
};

/**
 * Validates a bundle and publishes it as a new immutable version. Independent of HTTP: the
 * upload route and the large-upload completion both call it. Every rejection is a RegistryError,
 * and a rejected upload leaves storage as it was (no entry, no unreferenced archive).
 * Pass the app's `RegistryDeps`: their `onCatalogChange` also drops this process's read cache.
 */
export async function publishBundle(bundleBytes: Uint8Array, deps: PublishDeps): Promise<PublishedEntry> {
  const bundle = validateBundle(bundleBytes, deps.limits);
  assertToolIdNotReserved(bundle.toolId);

  const digest = archiveDigest(bundle.toolZip);
  const now = (deps.now?.() ?? new Date()).toISOString();
  const { tool_source_code_link: _computedPerRequest, ...fields } = bundle.entry;
  const entry: PublishedEntry = {
    ...fields,
    tool_id: bundle.toolId,
    version: bundle.version,
    tool_archive_sha256: digest.sha256,
    tool_archive_integrity: digest.integrity,
    tool_archive_size: digest.size,
    published_at: now,
    updated_at: now,
    ...(bundle.capabilities === undefined ? {} : { tool_capabilities: bundle.capabilities }),
  };

  // Archive first, so no entry ever names a missing object; the conditional put decides
  // uniqueness, and a loser removes its archive unless another version uses the same bytes.
  await deps.archives.put(digest.sha256, bundle.toolZip);
  try {
    await deps.entries.putVersion(entry);
  } catch (error) {
    await removeArchiveIfUnreferenced(deps, digest.sha256);
    if (error instanceof VersionExistsError) throw versionExists(bundle.toolId, bundle.version);
    throw error;
  }
  await Promise.all([
    // Another upload of the same bytes may have failed and removed the shared object meanwhile.
    deps.archives.exists(digest.sha256).then((exists) => (exists ? undefined : deps.archives.put(digest.sha256, bundle.toolZip))),
    deps.entries.promoteIfNewest(entry),
  ]);
  // Recorded last: a process that sees the new revision re-reads and finds the new latest pointer.
  await recordCatalogChange(deps, { toolId: entry.tool_id, kind: "published" });
  return entry;
}

function versionExists(toolId: string, version: string): RegistryError {
  return new RegistryError(
    409,
    "Failed to process tool package",
    `Tool ${toolId} version ${version} already exists and published versions are immutable: ` +
      `delete it (DELETE /tools/${toolId}) or bump tool_metadata.version in spec.json.`,
  );
}
