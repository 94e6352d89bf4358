/**
 * A tool's vector for hybrid search as stored with its entry (`tool_search_embedding`, written at
 * publish and edit time when the registry embeds tools: docs/search.md, "Hybrid retrieval"): the
 * model that made it and the float32 values, little-endian, in base64. At most 4,096 dimensions,
 * 22 KB of the entry's 300 KB budget (entry-limits.ts). Never served: `presentEntry` leaves it out.
 */
export interface StoredEmbedding {
  model: string;
  dimensions: number;
  vector: string;
}
