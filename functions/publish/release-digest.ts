import { createHash } from "node:crypto";
import type { PublishedEntry } from "../entry/published-entry.js";

/**
 * What identifies an uploaded release: the sha256 of its entry as the bundle defined it, with
 * keys sorted and the publish timestamps and search vector left out (they differ between two
 * uploads of the same bundle, or are derived from it). Two uploads with the same digest are the same release, so the second one may finish
 * the first one's publish instead of being refused (docs/storage.md, "Publishing").
 */
export function releaseDigest(entry: PublishedEntry): string {
  const { published_at: _published, updated_at: _updated, tool_search_embedding: _derived, ...release } = entry;
  return createHash("sha256").update(canonicalJson(release)).digest("hex");
}

/** JSON with object keys sorted at every level (recursive: stored JSON nests at most 32 levels, see entry-limits.ts). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
