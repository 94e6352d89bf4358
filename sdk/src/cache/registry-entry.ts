import semver from "semver";
import { RegistryError, RegistryUnavailableError } from "../registry-client/registry-errors.js";
import type { EntryWithTag, RegistryClient } from "../registry-client/registry-client.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { newestReleaseOldEnough } from "../trust/release-age.js";
import { mayBeLatest } from "../trust/version-status.js";
import { checkedEntry } from "./entry-shape.js";
import type { ToolCache } from "./tool-cache.js";

/** How "latest" is chosen: with `minReleaseAgeHours`, among versions at least that old (docs/sdk.md, "Publisher trust"). */
export interface LatestPolicy {
  minReleaseAgeHours?: number | undefined;
  /** The clock `minReleaseAgeHours` counts from, in ms. */
  now: () => number;
}

/**
 * The registry entry to run for `"id"` or `"id@version"`. Every entry fetched is cached with its
 * ETag, so a later add works offline. A pinned version is revalidated whenever the registry is
 * reachable (one conditional GET, a 304 when nothing changed), because a version is not frozen: a
 * deleted tool's version can be published again with other code, which must never run stale. When
 * the registry is unreachable, the cached entry is used: for `id@version` that version, for `id`
 * the highest cached version that is not yanked (and old enough under `minReleaseAgeHours`).
 * Every entry, fetched or cached, is checked for shape (`checkedEntry`) before it names a file.
 */
export async function registryEntry(
  client: RegistryClient,
  cache: ToolCache,
  toolId: string,
  version: string | undefined,
  policy: LatestPolicy,
): Promise<ToolRecord> {
  const entry =
    version !== undefined
      ? await pinnedEntry(client, cache, toolId, version)
      : policy.minReleaseAgeHours === undefined
        ? await latestEntry(client, cache, toolId)
        : await agedEntry(client, cache, toolId, policy.minReleaseAgeHours, policy.now);
  return checkedEntry(entry, toolId, version, client.baseUrl);
}

async function pinnedEntry(client: RegistryClient, cache: ToolCache, toolId: string, version: string): Promise<ToolRecord> {
  const cached = await cache.readEntry(toolId, version);
  let fresh: EntryWithTag | undefined;
  try {
    fresh = await client.getToolVersionIfChanged(toolId, version, cached?.etag);
  } catch (error) {
    if (cached !== undefined && error instanceof RegistryUnavailableError) return cached.entry;
    throw error;
  }
  if (fresh === undefined) {
    if (cached === undefined)
      throw new RegistryError(
        304,
        "Invalid response from server",
        `${client.baseUrl} answered 304 Not Modified to a request without If-None-Match.`,
        { toolId },
      );
    return cached.entry;
  }
  await cache.writeEntry(toolId, version, { ...fresh, entry: checkedEntry(fresh.entry, toolId, version, client.baseUrl) });
  return fresh.entry;
}

async function latestEntry(client: RegistryClient, cache: ToolCache, toolId: string): Promise<ToolRecord> {
  let fresh: EntryWithTag;
  try {
    fresh = await client.getToolWithTag(toolId);
  } catch (error) {
    const newest = error instanceof RegistryUnavailableError ? await newestCachedEntry(cache, toolId) : undefined;
    if (newest === undefined) throw error;
    return newest;
  }
  const entry = checkedEntry(fresh.entry, toolId, undefined, client.baseUrl);
  await cache.writeEntry(toolId, entryVersion(entry), fresh);
  return entry;
}

/** The newest version listed by `GET /tools/{id}/versions` (or cached, offline) that is old enough; then revalidated like a pin. */
async function agedEntry(
  client: RegistryClient,
  cache: ToolCache,
  toolId: string,
  minAgeHours: number,
  now: () => number,
): Promise<ToolRecord> {
  let versions: unknown;
  try {
    versions = await client.listVersions(toolId);
  } catch (error) {
    const cached = error instanceof RegistryUnavailableError ? await cachedEntries(cache, toolId) : [];
    if (cached.length === 0) throw error;
    const chosen = newestReleaseOldEnough(toolId, cached, minAgeHours, now());
    return cached.find((entry) => entryVersion(entry) === chosen)!;
  }
  return pinnedEntry(client, cache, toolId, newestReleaseOldEnough(toolId, versions, minAgeHours, now()));
}

async function newestCachedEntry(cache: ToolCache, toolId: string): Promise<ToolRecord | undefined> {
  const runnable = (await cachedEntries(cache, toolId)).filter((entry) => semver.valid(entryVersion(entry)) !== null && mayBeLatest(entry));
  return runnable.sort((a, b) => semver.rcompare(entryVersion(a), entryVersion(b)))[0];
}

async function cachedEntries(cache: ToolCache, toolId: string): Promise<ToolRecord[]> {
  const entries = await Promise.all(
    (await cache.cachedVersions(toolId)).map(async (version) => (await cache.readEntry(toolId, version))?.entry),
  );
  return entries.filter((entry): entry is ToolRecord => entry !== undefined);
}

/** The registry's `version`, else the spec's, else the registry's default `0.0.0`. */
export function entryVersion(entry: ToolRecord): string {
  if (typeof entry.version === "string") return entry.version;
  const declared = entry.tool_metadata?.version;
  return typeof declared === "string" ? declared : "0.0.0";
}
