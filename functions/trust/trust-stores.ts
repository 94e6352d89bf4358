import type { RegistryConfig } from "../config.js";
import { AuditStore } from "../storage/audit-store.js";
import { createDynamoDocumentClient } from "../storage/aws-clients.js";
import { KeyStore } from "../storage/key-store.js";
import { OwnerStore } from "../storage/owner-store.js";
import { TokenStore, type RateLimit } from "../storage/token-store.js";

/** Publisher trust's storage (docs/design/publisher-trust.md), in the tools' table. */
export interface TrustStores {
  tokens: TokenStore;
  owners: OwnerStore;
  keys: KeyStore;
  audit: AuditStore;
  /** Writes per publisher token per window; the admin token is not limited. */
  publisherRate: RateLimit;
}

export function createTrustStores(config: RegistryConfig): TrustStores {
  const db = createDynamoDocumentClient(config);
  return {
    tokens: new TokenStore(db, config.tableName),
    owners: new OwnerStore(db, config.tableName),
    keys: new KeyStore(db, config.tableName),
    audit: new AuditStore(db, config.tableName, config.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS),
    publisherRate: { limit: config.publisherWritesPerMinute ?? DEFAULT_PUBLISHER_WRITES_PER_MINUTE, windowMs: 60_000 },
  };
}

export const DEFAULT_PUBLISHER_WRITES_PER_MINUTE = 60;
/** How long the audit log keeps an event (`AUDIT_RETENTION_DAYS`); the stack's `auditRetentionDays` sets it. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 400;
