import type { PublishedEntry, VersionStatus } from "../entry/published-entry.js";
import type { ToolSummary } from "../search/search-document.js";
import { publisherLabel, publisherOf, releaseStatus } from "./release-trust.js";
import { toolFacts } from "./tool-facts.js";

/** One catalogue result: the search summary, with who makes and publishes the tool and its latest version's status. */
export interface CatalogueResult extends ToolSummary {
  /**
   * As pages name it (`publisherLabel`); undefined when the search index names a tool the catalogue no longer
   * has (it catches up within seconds).
   */
  publisher: string | undefined;
  /** `tool_metadata.author`, when stated. */
  author: string | undefined;
  license: string | undefined;
  status: VersionStatus;
}

/** `allLatest()` is the same array until the catalog changes, so its index by id is built once per change. */
const indexes = new WeakMap<readonly PublishedEntry[], Map<string, PublishedEntry>>();

function latestById(latest: readonly PublishedEntry[]): Map<string, PublishedEntry> {
  let index = indexes.get(latest);
  if (index === undefined) {
    index = new Map(latest.map((entry) => [entry.tool_id, entry]));
    indexes.set(latest, index);
  }
  return index;
}

/** The page's summaries with their publisher and status, read from the latest entries. */
export function catalogueResults(summaries: readonly ToolSummary[], latest: readonly PublishedEntry[]): CatalogueResult[] {
  const index = latestById(latest);
  return summaries.map((summary) => {
    const entry = index.get(summary.tool_id);
    const facts = entry === undefined ? undefined : toolFacts(entry);
    return {
      ...summary,
      publisher: entry === undefined ? undefined : publisherLabel(publisherOf(entry)),
      author: facts?.author,
      license: facts?.license,
      status: entry === undefined || entry.version !== summary.version ? "active" : releaseStatus(entry).status,
    };
  });
}
