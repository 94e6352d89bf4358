import { INTERNAL_PARTITION_PREFIX } from "./table-schema.js";

/**
 * Partitions of the publisher-trust items (docs/design/publisher-trust.md), in the internal key
 * space: no tool id can start with `#`, so no tool route reaches them (docs/durability.md, "Key space").
 * Sort keys: the publisher name (tokens), the replaced token's sha256 (token history), the tool id
 * (owners), the key id (keys), time + id (audit).
 */
export const TRUST_PARTITIONS = {
  tokens: `${INTERNAL_PARTITION_PREFIX}tokens`,
  tokenHistory: `${INTERNAL_PARTITION_PREFIX}token-history`,
  owners: `${INTERNAL_PARTITION_PREFIX}owners`,
  keys: `${INTERNAL_PARTITION_PREFIX}keys`,
  audit: `${INTERNAL_PARTITION_PREFIX}audit`,
} as const;
