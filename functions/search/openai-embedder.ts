import { checkedVectors, EmbeddingError, type Embedder } from "./embedder.js";

export interface OpenAIEmbedderOptions {
  /** E.g. `https://api.openai.com/v1` or a local server's `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  apiKey: string;
  /** E.g. `text-embedding-3-small`. */
  model: string;
  /** `dimensions` of the request (models that can shorten their vectors); omitted: the model's own. */
  dimensions?: number;
  /** A request that has not answered after this long fails (default 10,000 ms). */
  timeoutMs?: number;
}

/** Texts per request: the API takes up to 2,048 inputs. */
const MAX_INPUTS_PER_REQUEST = 2048;

/**
 * Embeddings from an OpenAI-compatible `POST /embeddings` (`{model, input, encoding_format}` →
 * `{data: [{index, embedding}]}`), through `fetch`: one request per 2,048 texts.
 */
export class OpenAIEmbedder implements Embedder {
  readonly model: string;
  private readonly url: string;

  constructor(private readonly options: OpenAIEmbedderOptions) {
    this.model = options.model;
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += MAX_INPUTS_PER_REQUEST) {
      vectors.push(...(await this.request(texts.slice(start, start + MAX_INPUTS_PER_REQUEST))));
    }
    return vectors;
  }

  private async request(input: readonly string[]): Promise<Float32Array[]> {
    const body: Record<string, unknown> = { model: this.model, input, encoding_format: "float" };
    if (this.options.dimensions !== undefined) body.dimensions = this.options.dimensions;
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${this.options.apiKey}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new EmbeddingError(`The embeddings endpoint ${this.url} could not be reached: ${(error as Error).message}`);
    }
    const answer = (await response.json().catch(() => undefined)) as { data?: unknown; error?: { message?: unknown } } | undefined;
    if (!response.ok) {
      const message = typeof answer?.error?.message === "string" ? answer.error.message : response.statusText;
      throw new EmbeddingError(`The embeddings endpoint ${this.url} answered ${response.status}: ${message}`, response.status);
    }
    if (!Array.isArray(answer?.data))
      throw new EmbeddingError(`The embeddings endpoint ${this.url} answered without a data list.`, response.status);
    const rows = (answer.data as { index?: unknown; embedding?: unknown }[]).slice().sort((a, b) => Number(a.index) - Number(b.index));
    return checkedVectors(
      rows.map((row) => (Array.isArray(row.embedding) ? row.embedding : [])),
      input.length,
      "The embeddings endpoint",
    );
  }
}
