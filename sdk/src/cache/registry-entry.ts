import semver from "semver";
import { RegistryError, RegistryUnavailableError } from "../registry-client/registry-errors.js";
import type { EntryWithTag, RegistryClient } from "../registry-client/registry-client.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import type { ToolCache } from "./tool-cache.js";

/**
 * The registry entry to run for `"id"` or `"id@version"`. Every entry fetched is cached with its
 * ETag, so a later add works offline. A pinned version is revalidated whenever the registry is
 * reachable (one conditional GET, a 304 when nothing changed), because a version is not frozen: a
 * deleted tool's version can be published again with other code, which must never run stale. When
 * the registry is unreachable, the cached entry is used: for `id@version` that version, for `id`
 * the highest cached version.
 */
export async function registryEntry(client: RegistryClient, cache: ToolCache, toolId: string, version: string | undefined): Promise<ToolRecord> {
  return version === undefined ? latestEntry(client, cache, toolId) : pinnedEntry(client, cache, toolId, version);
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
    if (cached === undefined) throw new RegistryError(304, "Invalid response from server", `${client.baseUrl} answered 304 Not Modified to a request without If-None-Match.`, { toolId });
    return cached.entry;
  }
  await cache.writeEntry(toolId, version, fresh);
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
  await cache.writeEntry(toolId, entryVersion(fresh.entry), fresh);
  return fresh.entry;
}

async function newestCachedEntry(cache: ToolCache, toolId: string): Promise<ToolRecord | undefined> {
  const versions = (await cache.cachedVersions(toolId)).filter((version) => semver.valid(version) !== null);
  const newest = semver.rsort(versions)[0];
  return newest === undefined ? undefined : (await cache.readEntry(toolId, newest))?.entry;
}

function entryVersion(entry: ToolRecord): string {
  if (typeof entry.version === "string") return entry.version;
  const declared = entry.tool_metadata?.version;
  return typeof declared === "string" ? declared : "0.0.0";
}
