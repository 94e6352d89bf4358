import type { SearchableEntry } from "./search-document.js";
import { ToolSearchIndex, type SearchHit, type SearchQuery } from "./tool-search-index.js";

/** How one array of entries differs from the previous one. */
export interface EntriesDelta {
  upserted: readonly SearchableEntry[];
  removed: readonly string[];
}

/**
 * The search index of a process (a warm Lambda container or the local server), kept in step with
 * the catalog. `loadLatest` is the registry's revision-checked read of every latest entry: it
 * hands back the same array until the catalog changes (a local write, or a new catalog revision
 * noticed within `cacheRevalidateMs`). When `deltaSince` can say how a new array differs from the
 * indexed one, only those tools are updated; otherwise the new array is diffed against the indexed
 * one, so a write still costs one index update, not a rebuild; a large change (or the first
 * search) builds from scratch.
 */
export class CatalogSearch {
  private index = new ToolSearchIndex();
  private indexed: readonly SearchableEntry[] | undefined;
  private fingerprints = new Map<string, string>();
  private loadsStarted = 0;
  private appliedTicket = 0;

  constructor(
    private readonly loadLatest: () => Promise<readonly SearchableEntry[]>,
    private readonly deltaSince: (previous: readonly SearchableEntry[], current: readonly SearchableEntry[]) => EntriesDelta | undefined = () => undefined,
  ) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const ticket = ++this.loadsStarted;
    const entries = await this.loadLatest();
    // A load that started before the one already applied may hold an older catalog: keep the newer.
    if (ticket > this.appliedTicket) {
      this.sync(entries);
      this.appliedTicket = ticket;
    }
    return this.index.search(query);
  }

  /** Brings the index in line with `entries` (synchronous, so concurrent searches never interleave). */
  sync(entries: readonly SearchableEntry[]): void {
    if (entries === this.indexed) return;
    const delta = this.indexed === undefined ? undefined : this.deltaSince(this.indexed, entries);
    if (delta !== undefined) this.apply(delta);
    else this.diff(entries);
    this.indexed = entries;
  }

  private apply(delta: EntriesDelta): void {
    for (const toolId of delta.removed) {
      this.index.remove(toolId);
      this.fingerprints.delete(toolId);
    }
    for (const entry of delta.upserted) {
      this.index.upsert(entry);
      this.fingerprints.set(entry.tool_id, fingerprint(entry));
    }
  }

  private diff(entries: readonly SearchableEntry[]): void {
    const fingerprints = new Map(entries.map((entry) => [entry.tool_id, fingerprint(entry)]));
    const changed = entries.filter((entry) => this.fingerprints.get(entry.tool_id) !== fingerprints.get(entry.tool_id));
    const removed = [...this.fingerprints.keys()].filter((toolId) => !fingerprints.has(toolId));
    if (changed.length + removed.length > REBUILD_FRACTION * entries.length) {
      this.index = ToolSearchIndex.build(entries);
    } else {
      for (const toolId of removed) this.index.remove(toolId);
      for (const entry of changed) this.index.upsert(entry);
    }
    this.fingerprints = fingerprints;
  }
}

/** Past this share of changed tools, building afresh is cheaper than updating one by one. */
const REBUILD_FRACTION = 0.25;

/**
 * What identifies one published state of a tool: every write (upload, PUT) stamps `updated_at`,
 * and a delete followed by a re-upload gets a new `published_at`.
 */
function fingerprint(entry: SearchableEntry): string {
  return [entry.version, entry.published_at, entry.updated_at, entry.tool_search_description].map(String).join("\0");
}
