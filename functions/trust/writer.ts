import type { Context } from "hono";
import type { TokenRecord } from "../storage/token-store.js";
import type { AuditSubject, AuditTrail } from "./audit-trail.js";

/** Who sent a write request, once its token checked out. */
export type Writer = { publisher: string; admin: true } | { publisher: string; admin: false; token: TokenRecord };

declare module "hono" {
  interface ContextVariableMap {
    writer: Writer;
    auditSubject: AuditSubject;
    auditTrail: AuditTrail;
  }
}

/** The writer `requireWriter` let through (routes behind it only). */
export function writerOf(c: Context): Writer {
  return c.get("writer");
}

/** Names the tool, version (and, for routes whose action depends on the body, the action) in the audit event. */
export function auditSubject(c: Context, subject: AuditSubject): void {
  const current = c.get("auditSubject") as AuditSubject | undefined;
  c.set("auditSubject", { ...current, ...subject });
}

/**
 * `auditSubject`, and the stored pending event names the tool too, once this resolves: what a
 * route whose tool comes from its body (an upload) awaits beside its first write.
 */
export function auditSubjectStored(c: Context, subject: Required<Pick<AuditSubject, "tool_id" | "version">>): Promise<void> {
  auditSubject(c, subject);
  return c.get("auditTrail").name(subject);
}

/**
 * Resolves once the request's audit event is stored (rejects when it could not be): what a route
 * that runs beside that write (`beforeAuditStored`) awaits before its first write.
 */
export function auditStored(c: Context): Promise<void> {
  return c.get("auditTrail").stored();
}

/** Writes the request's audit outcome now, as answered with `status`, beside the route's last write. */
export function completeAuditAs(c: Context, status: number): Promise<void> {
  return c.get("auditTrail").completeAs(status);
}
