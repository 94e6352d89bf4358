import { createHash } from "node:crypto";
import type { AgentState } from "../../tool/agent-state.js";

/** What Read saw of a file: enough to tell later whether the file still has that content. */
export interface ReadRecord {
  sha256: string;
  mtimeMs: number;
  size: number;
}

const MAX_ENTRIES = 100;
const STATE_SLOT = "builtin.readCache";

export function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * The read-before-write ledger shared by Read, Write and Edit through the agent state. It records
 * the content hash, not the content: Write and Edit compare the file on disk with it, so a stale
 * read (the file changed since) is refused even when the mtime did not move, and the ledger is
 * refreshed after every Write and Edit, so Edit → Edit works without a Read in between.
 */
export class ReadCache {
  private readonly records = new Map<string, ReadRecord>();

  static of(state: AgentState): ReadCache {
    return state.slot(STATE_SLOT, () => new ReadCache());
  }

  get(path: string): ReadRecord | undefined {
    const record = this.records.get(path);
    if (record) {
      this.records.delete(path);
      this.records.set(path, record);
    }
    return record;
  }

  remember(path: string, content: Uint8Array, mtimeMs: number): void {
    this.records.delete(path);
    this.records.set(path, { sha256: sha256(content), mtimeMs, size: content.length });
    while (this.records.size > MAX_ENTRIES) this.records.delete(this.records.keys().next().value!);
  }

  forget(path: string): void {
    this.records.delete(path);
  }
}
