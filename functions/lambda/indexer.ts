// Lambda entry point of the indexer (scheduled): rebuilds the search index and listing snapshots in S3.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { CatalogIndexer, type CatalogIndexerRun } from "../indexing/catalog-indexer.js";
import { loadConfig } from "../config.js";
import { checkSearchRuntimeAtStart, searchRuntimeProblem } from "../search/search-runtime.js";
import { createDynamoDocumentClient } from "../storage/aws-clients.js";
import { EntryStore } from "../storage/entry-store.js";

/** The indexer configured from `env`; kept warm, it keeps its index between runs. */
export function createIndexerHandler(env: Record<string, string | undefined> = process.env): () => Promise<CatalogIndexerRun> {
  const config = loadConfig(env);
  const indexer = new CatalogIndexer(config, new EntryStore(createDynamoDocumentClient(config), config.tableName));
  return () => {
    // A runtime that cannot search fails every run, so the function's errors alarm names it.
    const problem = searchRuntimeProblem();
    return problem === undefined ? indexer.run() : Promise.reject(new Error(problem));
  };
}

export const handler = createIndexerHandler();
checkSearchRuntimeAtStart();
