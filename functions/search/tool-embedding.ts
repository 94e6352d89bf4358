import { MAX_EMBEDDING_DIMENSIONS, type Embedder } from "./embedder.js";
import type { StoredEmbedding } from "../entry/search-embedding.js";
import { inputSchemaText, type SearchableEntry } from "./search-document.js";

/** What is embedded of a tool, at most this long: its short fields, not the man page. */
const MAX_EMBEDDED_CHARS = 8_000;

/** The text a tool's vector is made of: id and name, description, tags, type, input properties. */
export function embeddingText(entry: SearchableEntry): string {
  const name = (entry.tool_metadata as { name?: unknown } | undefined)?.name;
  const tags = Array.isArray(entry.tool_tags) ? entry.tool_tags.filter((tag) => typeof tag === "string") : [];
  return [
    entry.tool_id,
    typeof name === "string" ? name : "",
    text(entry.tool_search_description),
    tags.join(", "),
    text(entry.tool_type),
    inputSchemaText(entry.tool_api_spec),
  ]
    .filter((part) => part !== "")
    .join("\n")
    .slice(0, MAX_EMBEDDED_CHARS);
}

export function encodeEmbedding(model: string, vector: Float32Array): StoredEmbedding {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < vector.length; index++) view.setFloat32(index * 4, vector[index]!, true);
  return { model, dimensions: vector.length, vector: Buffer.from(bytes).toString("base64") };
}

/** The vector of a stored embedding, or undefined when it is absent or malformed (then the tool is found lexically only). */
export function decodeEmbedding(stored: unknown): { model: string; vector: Float32Array } | undefined {
  if (stored === null || typeof stored !== "object") return undefined;
  const { model, dimensions, vector } = stored as Partial<Record<keyof StoredEmbedding, unknown>>;
  if (typeof model !== "string" || typeof vector !== "string" || typeof dimensions !== "number") return undefined;
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_EMBEDDING_DIMENSIONS) return undefined;
  const bytes = Buffer.from(vector, "base64");
  if (bytes.length !== dimensions * 4) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float32Array(dimensions);
  for (let index = 0; index < dimensions; index++) values[index] = view.getFloat32(index * 4, true);
  return values.every(Number.isFinite) ? { model, vector: values } : undefined;
}

/**
 * The entry with a fresh `tool_search_embedding` of its text (publish, edit). When the embedder
 * fails the write goes on without one and the failure is logged: the tool is then found
 * lexically only until its next edit or version, rather than a publish failing for a ranking aid.
 */
export async function withSearchEmbedding<Entry extends SearchableEntry>(entry: Entry, embedder: Embedder | undefined): Promise<Entry> {
  const { tool_search_embedding: _previous, ...rest } = entry;
  if (embedder === undefined) return entry;
  try {
    const [vector] = await embedder.embed([embeddingText(entry)]);
    return { ...rest, tool_search_embedding: encodeEmbedding(embedder.model, vector!) } as Entry;
  } catch (error) {
    console.error(`[search] no embedding for ${entry.tool_id}: ${(error as Error).message}`);
    return rest as Entry;
  }
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}
