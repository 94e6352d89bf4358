import type { CliIo } from "../cli-io.js";

/** Warnings go to stderr, so stdout stays the command's result. */
export function printWarnings(io: CliIo, warnings: readonly string[] | undefined): void {
  for (const warning of warnings ?? []) io.err(`agent-tools: warning: ${warning}\n`);
}
