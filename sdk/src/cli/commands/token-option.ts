import { Option, type Command } from "commander";
import { withJsonOption, type CliContext } from "../cli-context.js";

/** `--token`, read from `AGENT_TOOLS_TOKEN` when not given (write commands only). */
export function tokenOption(): Option {
  return new Option("--token <token>", "write token").env("AGENT_TOOLS_TOKEN");
}

/** The options `withWriteOptions` adds, as commander parses them. */
export interface WriteOptions {
  token?: string;
  json?: boolean;
}

/** A write command's shared options after its own: `--token` (or `AGENT_TOOLS_TOKEN`), then `--json`. */
export function withWriteOptions(command: Command): Command {
  return withJsonOption(command.addOption(tokenOption()));
}

/** Where a write command's request goes: the chosen registry, with its write token (a usage error when none was given). */
export function writeRequest(context: CliContext, options: WriteOptions): { registryUrl: string; token: string } {
  return { registryUrl: context.registryUrl(), token: context.writeToken(options.token) };
}
