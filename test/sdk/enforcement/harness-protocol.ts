import type { HarmKind, RunEffects } from "./run-effects.js";
import type { SnapshotRoot } from "./tree-snapshot.js";

/** The two identities the harness runs as (docs/sandbox.md: root agents are supported). */
export type HarnessPass = "root" | "unprivileged";

/** What the test hands the harness on stdin when it starts it inside the outer wall. */
export interface PassConfig {
  pass: HarnessPass;
  /** The pass's throwaway folder: worlds, sockets and the results file go here. */
  throwaway: string;
  /** The agent's descriptor left open for its children, and the canary in its file. */
  descriptor: { fd: number; canary: string };
  /** Places outside every world that the outer wall leaves writable: an escaped write lands there. */
  outsideRoots: SnapshotRoot[];
  /** Run only the entries at these corpus indexes (all when absent). */
  only?: number[];
}

export const MODES = ["default", "acceptEdits"] as const;
export type HarnessMode = (typeof MODES)[number];

export interface Decision {
  behavior: "allow" | "ask" | "deny";
  /** The engine's reason, with the Bash analysis's read-only rules for an allowed command. */
  reason: string;
}

export interface EntryResult {
  index: number;
  /** The command as run, placeholders filled. */
  command: string;
  decisions: Record<HarnessMode, Decision>;
  ran: boolean;
  exitCode?: number;
  /** The start of the tool's result, for the failure message. */
  output?: string;
  effects: RunEffects;
}

export interface PassResults {
  pass: HarnessPass;
  uid: number;
  sandboxed: boolean;
  results: EntryResult[];
  /** What each detector control showed (detector-controls.ts), by the kind it must show. */
  controls: Partial<Record<HarmKind, RunEffects>>;
  elapsedMs: number;
}

/** Where the harness leaves its results, inside the pass's throwaway folder. */
export const RESULTS_FILE = "results.json";
