import type { PublishedEntry } from "../entry/published-entry.js";
import { pointerOrder } from "../entry/version-rank.js";
import { INDEX_REPAIR_ATTRIBUTE, LATEST_CATALOG, LATEST_SORT_KEY } from "./table-schema.js";

/** The latest pointer naming `entry`: a copy of it, in the listing index, ordered by `pointerOrder`. */
export function pointerItem(entry: PublishedEntry): Record<string, unknown> {
  return {
    tool_id: entry.tool_id,
    version: LATEST_SORT_KEY,
    catalog: LATEST_CATALOG,
    latest_version: entry.version,
    latest_order: pointerOrder(entry.version, entry.updated_at),
    entry,
  };
}

/** A listing-index item that is a pointer with its entry (not the doctor's index-repair placeholder). */
export function isListed(item: Record<string, unknown>): boolean {
  return item.entry !== undefined && item[INDEX_REPAIR_ATTRIBUTE] === undefined;
}
