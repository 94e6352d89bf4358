/**
 * Turns texts into vectors for the optional hybrid search (docs/search.md, "Hybrid retrieval"):
 * a tool's text when it is published, a query's text when it is searched. Adapters:
 * `OpenAIEmbedder` (any OpenAI-compatible `/embeddings` endpoint) and `BedrockEmbedder` (Amazon
 * Bedrock, through the AWS SDK); `embedderFromEnv` picks one from the configuration.
 */
export interface Embedder {
  /** The model's name, stored with every vector: vectors of different models are never compared. */
  readonly model: string;
  /** One vector per text, in order, all of one length. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** The embedding service failed or answered something that is not one vector per text. */
export class EmbeddingError extends Error {
  override readonly name = "EmbeddingError";

  constructor(
    message: string,
    /** The HTTP status of the service's answer, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Longest vector accepted (text-embedding-3-large has 3,072 dimensions): 16 KB per vector stored. */
export const MAX_EMBEDDING_DIMENSIONS = 4096;

/** Checks that `vectors` are one finite vector per text, all of one length; else an EmbeddingError naming the problem. */
export function checkedVectors(vectors: readonly (readonly unknown[])[], texts: number, service: string): Float32Array[] {
  if (vectors.length !== texts) throw new EmbeddingError(`${service} returned ${vectors.length} vectors for ${texts} texts.`);
  const dimensions = vectors[0]?.length ?? 0;
  return vectors.map((vector, index) => {
    if (vector.length === 0 || vector.length > MAX_EMBEDDING_DIMENSIONS || vector.length !== dimensions) {
      throw new EmbeddingError(
        `${service} returned a vector of ${vector.length} dimensions at ${index} (expected 1 to ${MAX_EMBEDDING_DIMENSIONS}, all alike).`,
      );
    }
    if (!vector.every((value) => typeof value === "number" && Number.isFinite(value))) {
      throw new EmbeddingError(`${service} returned a vector with a value that is not a finite number at ${index}.`);
    }
    return Float32Array.from(vector as number[]);
  });
}
