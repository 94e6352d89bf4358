import type { PublishedEntry } from "../entry/published-entry.js";

export const LISTING_FORMAT = "agent-tools-listing/1";

/** Every latest entry at one catalog revision, sorted by tool id: what listings and filters read. */
export interface Listing {
  revision: number;
  entries: readonly PublishedEntry[];
}

/**
 * The listing as the indexer stores it (gzipped by the snapshot store): a header line
 * `{"format","revision","count"}`, then one entry per line, without the search vectors (the search
 * index holds those; no listing serves them). Lines parse one at a time, so a reader never holds a
 * second copy of the whole text as objects.
 */
export function encodeListing(listing: Listing): Uint8Array {
  const lines = [JSON.stringify({ format: LISTING_FORMAT, revision: listing.revision, count: listing.entries.length })];
  for (const { tool_search_embedding: _vector, ...entry } of listing.entries) lines.push(JSON.stringify(entry));
  return new TextEncoder().encode(`${lines.join("\n")}\n`);
}

/** The listing those bytes hold; a RangeError when they are not one (another format, cut short, unsorted). */
export function decodeListing(bytes: Uint8Array): Listing {
  const text = new TextDecoder().decode(bytes);
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  let header: { format?: unknown; revision?: unknown; count?: unknown };
  try {
    header = JSON.parse(lines[0] ?? "") as typeof header;
  } catch {
    throw new RangeError("not a listing snapshot: no header line");
  }
  if (header.format !== LISTING_FORMAT) throw new RangeError(`listing format ${String(header.format)}, expected ${LISTING_FORMAT}`);
  if (!Number.isSafeInteger(header.revision) || header.count !== lines.length - 1)
    throw new RangeError(`listing snapshot cut short: ${lines.length - 1} entries of ${String(header.count)}`);
  const entries = lines.slice(1).map((line) => JSON.parse(line) as PublishedEntry);
  for (let i = 1; i < entries.length; i++)
    if (!(entries[i - 1]!.tool_id < entries[i]!.tool_id)) throw new RangeError("listing snapshot not sorted by tool id");
  return { revision: header.revision as number, entries };
}
