import { PermissionBehavior, type PermissionDecision } from "../../permission/types.js";
import type { ReadProblem } from "./read-confinement.js";

/** How a reading tool names its read in a decision's message. */
export interface ReadWording {
  /** What asks, before the file's problem: "Read of a sensitive file". */
  asking: string;
  /** The message when nothing is wrong: "Read is read-only". */
  readOnly: string;
}

/**
 * The permission decision of a tool that reads, from what it would read: a secret asks even past
 * allow rules (bypass-immune); a read elsewhere, or none that matters, goes on to the rules and the mode.
 */
export function readDecision(problem: ReadProblem | undefined, wording: ReadWording): PermissionDecision {
  if (problem?.kind === "secret") {
    return {
      behavior: PermissionBehavior.ASK,
      message: `Permission required: ${wording.asking}: ${problem.message}`,
      reason: "Safety check: sensitive file",
      bypassImmune: true,
    };
  }
  return { behavior: PermissionBehavior.PASSTHROUGH, message: problem?.message ?? wording.readOnly };
}
