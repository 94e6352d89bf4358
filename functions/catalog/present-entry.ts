import type { PublishedEntry } from "../entry/published-entry.js";
import { ADMIN_PUBLISHER } from "../trust/publisher-name.js";

/** The stable download URL of one version's archive, under the origin the client reached. */
export function archiveLink(origin: string, toolId: string, version: string): string {
  return `${origin}/tools/${encodeURIComponent(toolId)}/versions/${encodeURIComponent(version)}/archive`;
}

/**
 * An entry as served: its archive link filled in for this origin, keys sorted as the Python
 * registry sorted them (docs/design/compatibility.md), without the search vector (internal).
 */
export function presentEntry(entry: PublishedEntry, origin: string): Record<string, unknown> {
  const { tool_search_embedding: _internal, ...served } = entry;
  const withLink: Record<string, unknown> = {
    // Entries stored before ownership and lifecycle statuses were published by the admin and are active.
    owner: ADMIN_PUBLISHER,
    status: "active",
    ...served,
    tool_source_code_link: archiveLink(origin, entry.tool_id, entry.version),
    ...(entry.tool_platform_archives === undefined
      ? {}
      : {
          tool_platform_archives: entry.tool_platform_archives.map((archive) => ({
            ...archive,
            url: `${archiveLink(origin, entry.tool_id, entry.version)}?platform=${encodeURIComponent(archive.key)}`,
          })),
        }),
  };
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(withLink).sort()) sorted[key] = withLink[key];
  return sorted;
}

const serialised = new WeakMap<PublishedEntry, Map<string, string>>();

/**
 * `presentEntry` as JSON text, memoised per entry object and origin: cached entries are shared,
 * never mutated objects, so the hot `GET /tools/{id}` path serialises each one once.
 */
export function presentEntryJson(entry: PublishedEntry, origin: string): string {
  let byOrigin = serialised.get(entry);
  if (!byOrigin) {
    byOrigin = new Map();
    serialised.set(entry, byOrigin);
  }
  let json = byOrigin.get(origin);
  if (json === undefined) {
    json = JSON.stringify(presentEntry(entry, origin));
    // Origins come from request headers: bound the memo so odd hosts cannot grow it without limit.
    if (byOrigin.size >= 16) byOrigin.clear();
    byOrigin.set(origin, json);
  }
  return json;
}
