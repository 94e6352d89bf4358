import type { BundleLimitOverrides } from "../validate/bundle-limits.js";
import { validateBundle } from "../validate/validate-bundle.js";
import { furtherArchives, type PublishedEntry } from "../entry/published-entry.js";
import { recordCatalogChange } from "../catalog/record-catalog-change.js";
import { removeArchiveIfUnreferenced } from "../catalog/remove-unreferenced-archive.js";
import { HttpProblem } from "../http-problem.js";
import type { RegistryDeps } from "../registry-deps.js";
import type { ArchiveWrite } from "../storage/archive-store.js";
import { VersionExistsError } from "../storage/version-writes.js";
import { archiveDigest, platformArchives } from "@agent-tools/sdk/tool-spec";
import { finishDeletion } from "./delete-tool.js";
import { finishVersionDeletion } from "./delete-version.js";
import { releaseDigest } from "./release-digest.js";
import { withSearchEmbedding } from "../search/tool-embedding.js";

export type PublishDeps = Pick<RegistryDeps, "entries" | "archives"> &
  Partial<Pick<RegistryDeps, "onCatalogChange" | "embedder" | "space">> & {
    /** Bundle limits (e.g. `maxBundleBytes`); the validator's defaults otherwise. */
    limits?: BundleLimitOverrides;
    now?: () => Date;
    /**
     * Runs once the bundle is valid and before anything is stored: may refuse the release (a
     * HttpProblem: scope, ownership, signature) and adds registry-owned fields (`owner`, `signature`).
     */
    admit?: (entry: PublishedEntry) => Promise<Partial<PublishedEntry>>;
    /**
     * Resolves once the request's audit event is stored: awaited before the first write, so a
     * route may validate the bundle beside that write (`auditStored`).
     */
    beforeFirstWrite?: () => Promise<void>;
    /** A write that goes beside the publish's last step, the published mark: the request's audit outcome (`completeAuditAs`). */
    besideLastWrite?: () => Promise<void>;
  };

/** A publish meets a delete of the same tool at most this often before it asks the client to retry. */
const MAX_DELETE_COLLISIONS = 3;

/**
 * Validates a bundle and publishes it as a new immutable version. Independent of HTTP: the
 * upload route and the large-upload completion both call it. Every rejection is a HttpProblem,
 * and a rejected upload leaves storage as it was.
 *
 * Publishing is a sequence of idempotent steps, so a retry finishes what a crash interrupted
 * (docs/durability.md, "Publishing"): archive written once (beside the admission, which may claim
 * the id) → version item (pending) → pointer moved forward → revision recorded, and the version
 * marked published beside the log write and the audit outcome. Uploading the same release again
 * completes a pending version (200); a finished one is 409.
 * Pass the app's `RegistryDeps`: their `onCatalogChange` also drops this process's read cache.
 */
export async function publishBundle(bundleBytes: Uint8Array, deps: PublishDeps): Promise<PublishedEntry> {
  const bundle = validateBundle(bundleBytes, deps.limits);
  // Before the owner claim, the first write: a bundle that cannot be stored is refused whole (507).
  await deps.space?.assertRoomFor(bundleBytes.byteLength);

  const digest = archiveDigest(bundle.toolZip);
  const now = (deps.now?.() ?? new Date()).toISOString();
  const { tool_source_code_link: _computedPerRequest, ...fields } = bundle.entry;
  const byName = new Map(bundle.archives.map((archive) => [archive.name, archive.bytes]));
  const draft: PublishedEntry = {
    ...fields,
    tool_id: bundle.toolId,
    version: bundle.version,
    tool_archive_sha256: digest.sha256,
    tool_archive_integrity: digest.integrity,
    tool_archive_size: digest.size,
    published_at: now,
    updated_at: now,
    ...(bundle.capabilities === undefined ? {} : { tool_capabilities: bundle.capabilities }),
    ...(bundle.platforms === undefined
      ? {}
      : { tool_platforms: bundle.platforms, tool_platform_archives: platformArchives(bundle.platforms, (name) => byName.get(name)!) }),
  };
  await deps.beforeFirstWrite?.();
  // The archive (content-addressed) needs nothing of the admission: the two go side by side.
  const firstArchiveWrite = deps.archives.putOnce(digest.sha256, bundle.toolZip);
  firstArchiveWrite.catch(() => undefined); // awaited below, after the admission
  let entry: PublishedEntry;
  try {
    const [admitted, embedded] = await Promise.all([deps.admit?.(draft) ?? {}, withSearchEmbedding(draft, deps.embedder)]);
    entry = { ...embedded, ...admitted };
  } catch (refusal) {
    // A refused release changes nothing: an archive only this upload wrote goes again (if storage fails
    // meanwhile, the doctor removes it as an orphan).
    if ((await firstArchiveWrite.catch(() => undefined)) === "written") {
      await removeArchiveIfUnreferenced(deps, digest.sha256).catch(() => undefined);
    }
    throw refusal;
  }
  const release = releaseDigest(entry);
  const bytesBySha = new Map(bundle.archives.map((archive) => [archiveDigest(archive.bytes).sha256, archive.bytes]));
  const further = furtherArchives(entry);

  for (let collision = 0; collision <= MAX_DELETE_COLLISIONS; collision++) {
    // Archives first, then the further ones' references: no version item ever names an object that was never written.
    const [primary, ...furtherWrites] = await Promise.all([
      collision === 0 ? firstArchiveWrite : deps.archives.putOnce(digest.sha256, bundle.toolZip),
      ...further.map((sha256) => deps.archives.putOnce(sha256, bytesBySha.get(sha256)!)),
    ]);
    await deps.entries.versions.putArchiveReferences(entry.tool_id, entry.version, further);
    const archives: ReleaseArchives = {
      primary,
      toolZip: bundle.toolZip,
      further: further.map((sha256, index) => ({ sha256, bytes: bytesBySha.get(sha256)!, write: furtherWrites[index]! })),
    };
    try {
      await deps.entries.versions.putVersion(entry, release);
    } catch (error) {
      if (!(error instanceof VersionExistsError)) throw error;
      const outcome = await publishAgain(deps, entry, release, archives);
      if (outcome === "retry") continue;
      return outcome;
    }
    if (await completePublish(deps, entry, archives)) return entry;
  }
  throw new HttpProblem(409, "Update conflict", `Tool ${bundle.toolId} is being deleted while this upload runs; retry the upload.`);
}

/** What this upload wrote to storage: `tool.zip` and the further platforms' archives, each with what `putOnce` found. */
interface ReleaseArchives {
  primary: ArchiveWrite;
  toolZip: Uint8Array;
  further: { sha256: string; bytes: Uint8Array; write: ArchiveWrite }[];
}

/**
 * The version item exists already. The same release whose publish did not finish is completed
 * (its original entry is kept); a finished one, or another release under the same version, is 409.
 */
async function publishAgain(
  deps: PublishDeps,
  entry: PublishedEntry,
  release: string,
  archives: ReleaseArchives,
): Promise<PublishedEntry | "retry"> {
  const partition = await deps.entries.reads.readPartition(entry.tool_id);
  if (partition.versions.some((version) => version.version === entry.version && version.doomed)) {
    // A delete claimed the old version: finish it, then publish afresh.
    await finishDeletion(deps, partition);
    return "retry";
  }
  const stored = await deps.entries.reads.getStoredVersion(entry.tool_id, entry.version);
  if (stored === undefined) return "retry"; // deleted between the two reads
  if (stored.deleting) {
    // A delete of just this version is under way: finish it, then publish afresh.
    await finishVersionDeletion(deps, entry.tool_id, entry.version, stored.entry.tool_archive_sha256, furtherArchives(stored.entry));
    return "retry";
  }
  if (stored.releaseDigest !== release) {
    await undoRefusedWrites(deps, entry, stored.entry, archives);
    throw versionExists(entry.tool_id, entry.version);
  }
  // Finished with its archives intact: every step is done, and a refusal changes nothing (not even the revision).
  if (!stored.pending && archives.primary === "present" && archives.further.every(({ write }) => write === "present"))
    throw versionExists(entry.tool_id, entry.version);
  if (!(await completePublish(deps, stored.entry, archives))) return "retry";
  return stored.entry;
}

/** Only what this upload wrote itself may go; the stored version keeps its own archives and references. */
async function undoRefusedWrites(
  deps: PublishDeps,
  entry: PublishedEntry,
  stored: PublishedEntry,
  archives: ReleaseArchives,
): Promise<void> {
  const kept = new Set([stored.tool_archive_sha256, ...furtherArchives(stored)]);
  const ours = archives.further.filter(({ sha256 }) => !kept.has(sha256));
  await deps.entries.versions.deleteArchiveReferences(
    entry.tool_id,
    entry.version,
    ours.map(({ sha256 }) => sha256),
  );
  const written = [
    ...(archives.primary === "written" && !kept.has(entry.tool_archive_sha256) ? [entry.tool_archive_sha256] : []),
    ...ours.filter(({ write }) => write === "written").map(({ sha256 }) => sha256),
  ];
  for (const sha256 of new Set(written)) await removeArchiveIfUnreferenced(deps, sha256);
}

/**
 * The steps after the version item, each idempotent: verify reused archives, move the pointer
 * forward, record the revision and mark the version published. False when a delete holds the
 * tool's pointer key (it was finished here; the caller publishes again).
 */
async function completePublish(deps: PublishDeps, entry: PublishedEntry, archives: ReleaseArchives): Promise<boolean> {
  const [advanced] = await Promise.all([
    deps.entries.pointer.advancePointer(entry),
    // A reused object may have been removed by a delete that checked references just before ours.
    archives.primary === "written" ? undefined : deps.archives.putOnce(entry.tool_archive_sha256, archives.toolZip),
    ...archives.further.filter(({ write }) => write !== "written").map(({ sha256, bytes }) => deps.archives.putOnce(sha256, bytes)),
  ]);
  if (!advanced) {
    const partition = await deps.entries.reads.readPartition(entry.tool_id);
    if (partition.pointer?.kind === "tombstone") {
      await finishDeletion(deps, partition);
      return false;
    }
  }
  // Recorded last: a process that sees the new revision re-reads and finds the new pointer.
  await recordCatalogChange(deps, { toolId: entry.tool_id, kind: "published" }, async () => {
    await Promise.all([deps.entries.versions.markPublished(entry.tool_id, entry.version), deps.besideLastWrite?.()]);
  });
  return true;
}

/** The advice names the one version, never the whole tool: deleting every version to republish one is a trap. */
function versionExists(toolId: string, version: string): HttpProblem {
  return new HttpProblem(
    409,
    "Failed to process tool package",
    `Tool ${toolId} version ${version} already exists and published versions are immutable: ` +
      `bump tool_metadata.version in spec.json, or delete just that version first ` +
      `(agent-tools delete ${toolId}@${version}, or DELETE /tools/${toolId}/versions/${version}).`,
    {},
    "VERSION_EXISTS",
  );
}
