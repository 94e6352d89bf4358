import { CommanderError } from "commander";
import { AgentToolsError } from "../errors.js";
import { BundleTransferError } from "../publish/index.js";
import { RegistryError, RegistryUnavailableError } from "../registry-client/index.js";
import type { CliIo } from "./cli-io.js";
import { EXIT } from "./exit-codes.js";

/** A command-line mistake the user fixes by changing the invocation. */
export class UsageError extends AgentToolsError {
  constructor(message: string) {
    super("CLI_USAGE", message);
  }
}

/** Prints one clear line (the registry's `detail` included) and returns the exit status. */
export function reportError(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  if (error instanceof UsageError) {
    io.err(`agent-tools: ${error.message}\n`);
    return EXIT.usage;
  }
  if (error instanceof RegistryUnavailableError || (error instanceof BundleTransferError && error.status === undefined)) {
    io.err(`agent-tools: ${error.message}\n`);
    return EXIT.unreachable;
  }
  if (error instanceof RegistryError) {
    io.err(`agent-tools: ${error.error} (HTTP ${error.status})${error.detail ? `: ${error.detail}` : ""}\n`);
    return EXIT.failed;
  }
  if (error instanceof AgentToolsError) {
    io.err(`agent-tools: ${error.message}\n`);
    return EXIT.failed;
  }
  io.err(`agent-tools: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT.failed;
}
