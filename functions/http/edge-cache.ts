import type { RegistryConfig } from "../config.js";

/**
 * `Cache-Control` of public reads that change when the catalog does (entries, versions, listings,
 * search): clients revalidate at once (`max-age=0`, by ETag where there is one), and a shared cache
 * in front (the stack's CloudFront) keeps an answer `EDGE_CACHE_SECONDS` before it asks the registry
 * again, so a popular read reaches a function at most once per edge and period
 * (docs/deployment.md#capacity). Without one (`0`, the local server), `no-cache`.
 */
export function publicReadCacheControl(config: Pick<RegistryConfig, "edgeCacheSeconds">): string {
  const seconds = config.edgeCacheSeconds ?? 0;
  return seconds > 0 ? `public, max-age=0, s-maxage=${seconds}` : "no-cache";
}
