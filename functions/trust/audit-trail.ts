import type { AuditEvent, AuditOutcome, AuditStore } from "../storage/audit-store.js";
import type { AuditAction } from "./audit-actions.js";

/** What a write route adds to its audit event as it learns it (the tool of an upload is in the bundle). */
export type AuditSubject = Pick<AuditEvent, "tool_id" | "version" | "publisher"> & { action?: AuditAction };

/**
 * The audit event of one write request (docs/design/publisher-trust.md): stored as pending before
 * the request writes anything, then completed with the request's outcome. A route may complete it
 * early, beside its own last write (a publish's published mark, docs/durability.md#cost), so the
 * two go in one round trip; `requireWriter`'s completion then writes again only if the request
 * ended otherwise (its last write failed). Completions are written in the order they are made.
 */
export class AuditTrail {
  private completed: { status: number; write: Promise<void> } | undefined;

  constructor(
    private readonly audit: AuditStore,
    /** The event's key, once `AuditStore.begin` stored it. */
    private readonly begun: Promise<string>,
    /** The tool and version the route named (`auditSubject`), read when the outcome is written. */
    private readonly subject: () => AuditSubject | undefined,
  ) {
    begun.catch(() => undefined); // answered by whoever awaits `stored`
  }

  /** Resolves once the pending event is stored; rejects with the storage error when it could not be. */
  async stored(): Promise<void> {
    await this.begun;
  }

  /** Names the event's tool and version now, before the request writes to the tool (an upload learns them from its bundle). */
  name(subject: Pick<AuditEvent, "tool_id" | "version">): Promise<void> {
    return this.begun.then((key) => this.audit.name(key, subject));
  }

  /** Writes the outcome of a request answered with `status` (once per status). */
  completeAs(status: number): Promise<void> {
    if (this.completed?.status === status) return this.completed.write;
    const previous = this.completed?.write.catch(() => undefined) ?? Promise.resolve();
    const write = previous.then(async () => {
      const key = await this.begun;
      await this.audit.complete(key, { outcome: outcomeOf(status), status, ...(this.subject() ?? {}) });
    });
    this.completed = { status, write };
    return write;
  }
}

function outcomeOf(status: number): AuditOutcome {
  return status >= 500 ? "failed" : status >= 400 ? "refused" : "ok";
}
