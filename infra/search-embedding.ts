import { ArnFormat, type Stack } from "aws-cdk-lib";
import type { RegistrySettings } from "./registry-settings.js";

/** What hybrid search adds to the functions that embed (`FunctionPermissions.embeds`); nothing when it is off. */
export interface EmbeddingSettings {
  /** The variables `functions/search/embedding-config.ts` reads. */
  readonly environment: Record<string, string>;
  /** The one Bedrock foundation model they may invoke, in the stack's region. */
  readonly modelArn: string | undefined;
}

export function embeddingSettings(stack: Stack, settings: RegistrySettings): EmbeddingSettings {
  if (settings.searchEmbeddings === "off") return { environment: {}, modelArn: undefined };
  return {
    environment: {
      SEARCH_EMBEDDINGS: "bedrock",
      SEARCH_EMBEDDING_MODEL: settings.searchEmbeddingModel,
      ...(settings.searchEmbeddingDimensions === undefined
        ? {}
        : { SEARCH_EMBEDDING_DIMENSIONS: String(settings.searchEmbeddingDimensions) }),
    },
    // Foundation models have no account in their ARN.
    modelArn: stack.formatArn({
      service: "bedrock",
      account: "",
      resource: "foundation-model",
      resourceName: settings.searchEmbeddingModel,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    }),
  };
}
