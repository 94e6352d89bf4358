import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { expandHome } from "./working-directories.js";
import type { PermissionMode } from "./types.js";

/**
 * One line of the decision log (docs/permissions.md#decision-log): the engine's verdict on a call
 * (`decision`), or who answered a call the engine asked about and how (`answer`).
 */
export interface DecisionRecord {
  time: string;
  event: "decision" | "answer";
  tool: string;
  /** Where the tool comes from, as a rule names it: `builtin:Read`, `registry:text-stats`, `mcp:files/read_file`. */
  origin?: string;
  /** `sha256:<hex>` of the whole input (RFC 8785 canonical JSON), to match a call without storing it. */
  input_digest: string;
  /** The input with secrets redacted and every value bounded. */
  input: unknown;
  mode: PermissionMode;
  outcome: "allow" | "deny" | "ask";
  reason?: string;
  /** The rule that decided, as written. */
  rule?: string;
  /** Its layer (`userSettings`, `projectSettings`, `localSettings`, `session`, …). */
  rule_source?: string;
  /** The settings file it came from, when it came from one. */
  settings_file?: string;
  /** For an answer: who gave it (`user`, `onCapabilityRequest`, `onTrustRequest`, …). */
  answered_by?: string;
  /** For an answer: the rules the user chose to remember with it. */
  remembered?: string[];
}

/**
 * Appends decisions to a JSONL file, one line each, written whole with `O_APPEND` before the
 * verdict is returned: a decision that cannot be recorded is an error, never an unrecorded
 * decision. The file is created private to the user (0600), its folder if missing (0700).
 */
export class DecisionLog {
  readonly path: string;

  constructor(path: string) {
    this.path = expandHome(path);
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
  }

  append(record: DecisionRecord): void {
    appendFileSync(this.path, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }
}

/** The records of a decision log's text, oldest first, and how many lines were not records (a torn last line, foreign text). */
export function parseDecisionLog(text: string): { records: DecisionRecord[]; unreadable: number } {
  const records: DecisionRecord[] = [];
  let unreadable = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const record = JSON.parse(line) as Partial<DecisionRecord>;
      if (typeof record.time === "string" && typeof record.tool === "string" && typeof record.outcome === "string")
        records.push(record as DecisionRecord);
      else unreadable++;
    } catch {
      unreadable++;
    }
  }
  return { records, unreadable };
}
