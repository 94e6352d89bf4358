import { registryRequest, type RegistryWriteOptions } from "./registry-request.js";

/** One write as the registry's audit log recorded it (docs/design/publisher-trust.md, "Audit log"). */
export interface AuditEvent {
  time: string;
  /** The publisher name of the token that sent it (`admin` for the admin token). */
  token: string;
  action: string;
  tool_id?: string;
  version?: string;
  /** The publisher a token or key action was about. */
  publisher?: string;
  client: string;
  outcome: "pending" | "ok" | "refused" | "failed";
  status: number;
}

export interface AuditPage {
  events: AuditEvent[];
  /** Pass as `cursor` for the next (older) page; absent on the last one. */
  next_cursor?: string;
}

/**
 * One page of the audit log, newest first (`GET /audit`, admin token).
 *
 *   let page = await readAuditLog({ registryUrl, token: adminToken }, { limit: 100 });
 *   while (page.next_cursor) page = await readAuditLog({ registryUrl, token: adminToken }, { cursor: page.next_cursor });
 */
export function readAuditLog(options: RegistryWriteOptions, page: { limit?: number; cursor?: string } = {}): Promise<AuditPage> {
  const query = new URLSearchParams();
  if (page.limit !== undefined) query.set("limit", String(page.limit));
  if (page.cursor !== undefined) query.set("cursor", page.cursor);
  const search = query.toString();
  return registryRequest(options, "GET", `/audit${search === "" ? "" : `?${search}`}`);
}
