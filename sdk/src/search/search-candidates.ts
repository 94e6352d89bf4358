import { ToolNotFoundError } from "../registry-client/registry-errors.js";
import type { RegistryClient } from "../registry-client/registry-client.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { NoSearchCandidatesError, ToolSearchError } from "./search-errors.js";

/**
 * Which tools the model chooses from: the added tools (default, as the Python SDK), or the best
 * `limit` matches of the registry's ranked search for the prompt (no `add` needed beforehand).
 */
export type SearchCandidates =
  | { from?: "added" }
  | {
      from: "registry";
      /** How many registry matches to offer the model, 1 to 100. Default 20. */
      limit?: number;
      /** Only tools of this exact `tool_type`. */
      type?: string;
      /** Only tools carrying this exact tag. */
      tag?: string;
    };

export const DEFAULT_REGISTRY_CANDIDATES = 20;
/** The registry's limit on `q`; a longer prompt is searched by its beginning. */
const MAX_REGISTRY_QUERY_CHARS = 512;

export async function registryCandidates(
  registry: RegistryClient | undefined,
  prompt: string,
  options: Extract<SearchCandidates, { from: "registry" }>,
): Promise<ToolRecord[]> {
  if (registry === undefined) {
    throw new ToolSearchError(
      "REGISTRY_NOT_CONFIGURED",
      'Searching with { from: "registry" } needs a registry: pass toolsDbUrl to new AgentTools().',
    );
  }
  const q = [...prompt.trim()].slice(0, MAX_REGISTRY_QUERY_CHARS).join("");
  const hits = await registry.searchTools({
    q,
    limit: options.limit ?? DEFAULT_REGISTRY_CANDIDATES,
    ...(options.type === undefined ? {} : { type: options.type }),
    ...(options.tag === undefined ? {} : { tag: options.tag }),
  });
  // The model needs each tool's input schema, which only the full entry carries.
  const records = await Promise.all(hits.map((hit) => registry.getTool(hit.tool_id).catch(skipDeleted)));
  const found = records.filter((record): record is ToolRecord => record !== undefined);
  if (found.length === 0) {
    throw new NoSearchCandidatesError(
      `No tools available: the registry's search found no tool for "${q.slice(0, 80)}". ` +
        `Try other words, or add tools with tools.add() and search those.`,
    );
  }
  return found;
}

/** A tool deleted between the search and the fetch is simply not offered. */
function skipDeleted(error: unknown): undefined {
  if (error instanceof ToolNotFoundError) return undefined;
  throw error;
}
