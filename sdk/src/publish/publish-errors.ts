import { AgentToolsError } from "../errors.js";

/** A tool folder or bundle that cannot be packed or sent as given; the message names the file to fix. */
export class PackError extends AgentToolsError {
  constructor(message: string, options: { toolId?: string; cause?: unknown } = {}) {
    super("PACK_INVALID", message, options);
  }
}

/** Storage refused the presigned PUT of a large bundle (expired URL, wrong size), or could not be reached (`status` undefined). */
export class BundleTransferError extends AgentToolsError {
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super("BUNDLE_TRANSFER_FAILED", message, options);
    this.status = options.status;
  }
}
