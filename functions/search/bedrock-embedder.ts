import type { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { checkedVectors, EmbeddingError, type Embedder } from "./embedder.js";

export interface BedrockEmbedderOptions {
  /** An Amazon Titan text embeddings model, e.g. `amazon.titan-embed-text-v2:0`. */
  model: string;
  region: string;
  /** Titan v2 takes 256, 512 or 1024; omitted: the model's default. */
  dimensions?: number;
  /** A call that has not answered after this long fails (default 10,000 ms). */
  timeoutMs?: number;
  /** For custom endpoints; by default a client of `region` with the default credential chain. */
  client?: BedrockRuntimeClient;
}

/**
 * Embeddings from Amazon Bedrock's Titan text embeddings models through `InvokeModel`
 * (`{inputText, dimensions?, normalize}` → `{embedding}`), one call per text, as that API takes.
 * Written to Bedrock's documented request and answer; not exercised against real AWS here.
 */
export class BedrockEmbedder implements Embedder {
  readonly model: string;
  /** Loaded on first use, so that a registry that does not embed with Bedrock never loads its client. */
  private sdk: Promise<typeof import("@aws-sdk/client-bedrock-runtime")> | undefined;
  private client: BedrockRuntimeClient | undefined;

  constructor(private readonly options: BedrockEmbedderOptions) {
    this.model = options.model;
    this.client = options.client;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: unknown[][] = [];
    for (const text of texts) vectors.push(await this.embedOne(text));
    return checkedVectors(vectors, texts.length, "Bedrock");
  }

  private async embedOne(inputText: string): Promise<unknown[]> {
    const body: Record<string, unknown> = { inputText, normalize: true };
    if (this.options.dimensions !== undefined) body.dimensions = this.options.dimensions;
    let answer: { embedding?: unknown };
    try {
      const { BedrockRuntimeClient, InvokeModelCommand } = await (this.sdk ??= import("@aws-sdk/client-bedrock-runtime"));
      this.client ??= new BedrockRuntimeClient({ region: this.options.region });
      const output = await this.client.send(
        new InvokeModelCommand({
          modelId: this.model,
          contentType: "application/json",
          accept: "application/json",
          body: JSON.stringify(body),
        }),
        { abortSignal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000) },
      );
      answer = JSON.parse(new TextDecoder().decode(output.body)) as { embedding?: unknown };
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      throw new EmbeddingError(`Bedrock ${this.model} failed: ${(error as Error).message}`, status);
    }
    return Array.isArray(answer.embedding) ? answer.embedding : [];
  }
}
