import { BedrockEmbedder } from "./bedrock-embedder.js";
import type { Embedder } from "./embedder.js";
import { OpenAIEmbedder } from "./openai-embedder.js";

type Env = Record<string, string | undefined>;

/**
 * The embedder the configuration asks for, or undefined (the default: lexical search only).
 * Throws an Error naming the variable when the configuration is incomplete or malformed, so a
 * misconfigured registry fails at start instead of searching without vectors unnoticed.
 *
 *   SEARCH_EMBEDDINGS=openai  SEARCH_EMBEDDING_MODEL=text-embedding-3-small
 *     SEARCH_EMBEDDING_URL (default https://api.openai.com/v1)
 *     SEARCH_EMBEDDING_API_KEY (else OPENAI_API_KEY)
 *   SEARCH_EMBEDDINGS=bedrock SEARCH_EMBEDDING_MODEL=amazon.titan-embed-text-v2:0  (region: AWS_REGION)
 *   both: SEARCH_EMBEDDING_DIMENSIONS, SEARCH_EMBEDDING_TIMEOUT_MS (default 10000)
 */
export function embedderFromEnv(env: Env = process.env): Embedder | undefined {
  const kind = env.SEARCH_EMBEDDINGS ?? "";
  if (kind === "" || kind === "off") return undefined;
  if (kind !== "openai" && kind !== "bedrock") throw new Error(`SEARCH_EMBEDDINGS must be "openai", "bedrock" or "off", got "${kind}"`);
  const model = env.SEARCH_EMBEDDING_MODEL;
  if (!model)
    throw new Error(
      `SEARCH_EMBEDDINGS=${kind} needs SEARCH_EMBEDDING_MODEL, e.g. ` +
        `${kind === "openai" ? "text-embedding-3-small" : "amazon.titan-embed-text-v2:0"}`,
    );
  const dimensions = optionalInteger(env.SEARCH_EMBEDDING_DIMENSIONS, "SEARCH_EMBEDDING_DIMENSIONS");
  const timeoutMs = optionalInteger(env.SEARCH_EMBEDDING_TIMEOUT_MS, "SEARCH_EMBEDDING_TIMEOUT_MS");
  if (kind === "bedrock") {
    return new BedrockEmbedder({ model, region: env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1", dimensions, timeoutMs });
  }
  const apiKey = env.SEARCH_EMBEDDING_API_KEY || env.OPENAI_API_KEY;
  if (!apiKey) throw new Error("SEARCH_EMBEDDINGS=openai needs SEARCH_EMBEDDING_API_KEY (or OPENAI_API_KEY)");
  return new OpenAIEmbedder({ baseUrl: env.SEARCH_EMBEDDING_URL || "https://api.openai.com/v1", apiKey, model, dimensions, timeoutMs });
}

function optionalInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^\d{1,7}$/.test(value) || Number(value) < 1) throw new Error(`${name} must be a whole number of at least 1, got "${value}"`);
  return Number(value);
}
