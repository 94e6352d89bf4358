import { AgentToolsError } from "../../errors.js";

/**
 * The system-call filter cannot be prepared on this machine: no table for its architecture, or
 * no safe folder for the program file. `reason` and `fix` are what a sandbox preflight reports.
 */
export class SeccompFilterError extends AgentToolsError<"SANDBOX_FILTER_UNAVAILABLE"> {
  readonly reason: string;
  readonly fix: string;

  constructor(reason: string, fix: string) {
    super("SANDBOX_FILTER_UNAVAILABLE", `The sandbox's system-call filter cannot be prepared: ${reason}. To fix: ${fix}.`);
    this.reason = reason;
    this.fix = fix;
  }
}
