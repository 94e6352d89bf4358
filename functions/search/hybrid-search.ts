import type { Embedder } from "./embedder.js";
import { reciprocalRankFusion } from "./rank-fusion.js";
import { MAX_SEARCH_DEPTH } from "./search-query.js";
import type { SearchQuery } from "./search-query.js";
import type { SearchHit, ToolSearchIndex } from "./tool-search-index.js";

/** Query vectors kept (the pages of one query, repeated queries): one embedding call each otherwise. */
const MAX_CACHED_QUERY_VECTORS = 256;
const SCORE_DIGITS = 6;

/**
 * Lexical and vector search fused (docs/search.md, "Hybrid retrieval"): the index's ranked
 * lexical results and the tools whose vectors are nearest the query's, each `MAX_SEARCH_DEPTH`
 * deep, merged by reciprocal rank, so a tool that either finds near the top rises and one both
 * find rises most. `score` is then the fused score. When the query cannot be embedded (the
 * service fails), the answer is the lexical ranking alone, and the failure is logged.
 */
export class HybridSearch {
  private readonly queryVectors = new Map<string, Float32Array>();

  constructor(private readonly embedder: Embedder) {}

  async search(index: Pick<ToolSearchIndex, "search" | "nearest">, query: SearchQuery): Promise<SearchHit[]> {
    const lexical = index.search({ ...query, limit: MAX_SEARCH_DEPTH });
    const vector = await this.queryVector(query.q);
    if (vector === undefined) return lexical.slice(0, query.limit);
    const { q: _text, ...filters } = query;
    const semantic = index.nearest(this.embedder.model, vector, { ...filters, limit: MAX_SEARCH_DEPTH });
    const hits = new Map([...semantic, ...lexical].map((hit) => [hit.tool_id, hit]));
    const fused = reciprocalRankFusion([lexical.map((hit) => hit.tool_id), semantic.map((hit) => hit.tool_id)]);
    return fused.slice(0, query.limit).map(({ item, score }) => ({ ...hits.get(item)!, score: Number(score.toPrecision(SCORE_DIGITS)) }));
  }

  private async queryVector(text: string): Promise<Float32Array | undefined> {
    const cached = this.queryVectors.get(text);
    if (cached !== undefined) return cached;
    try {
      const [vector] = await this.embedder.embed([text]);
      if (this.queryVectors.size >= MAX_CACHED_QUERY_VECTORS) this.queryVectors.clear();
      this.queryVectors.set(text, vector!);
      return vector;
    } catch (error) {
      console.error(`[search] lexical only for this query, it could not be embedded: ${(error as Error).message}`);
      return undefined;
    }
  }
}
