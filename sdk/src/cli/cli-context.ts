import type { Command } from "commander";
import { RegistryClient } from "../registry-client/registry-client.js";
import { checkRegistryUrl, RegistryUrlError } from "../registry-client/registry-url.js";
import type { CliIo } from "./cli-io.js";
import { UsageError } from "./report-error.js";

export const DEFAULT_REGISTRY = "http://127.0.0.1:6000";

/** What every command needs: the terminal, and the registry and token the command line chose. */
export interface CliContext {
  io: CliIo;
  /** `--registry` (or `AGENT_TOOLS_REGISTRY`), checked to be an http(s) URL. */
  registryUrl(): string;
  client(): RegistryClient;
  /** The write token, or a usage error saying how to give one. */
  writeToken(token: string | undefined): string;
}

export function cliContext(program: Command, io: CliIo): CliContext {
  const registryUrl = () => checkedRegistryUrl(program.opts<{ registry: string }>().registry);
  return {
    io,
    registryUrl,
    client: () => new RegistryClient(registryUrl()),
    writeToken(token) {
      if (!token) throw new UsageError("this command needs a write token: pass --token <token> or set AGENT_TOOLS_TOKEN.");
      return token;
    },
  };
}

/** `localhost:6000`, `ftp://…` or `…/tools` is a typo on the command line, not an unreachable registry. */
function checkedRegistryUrl(value: string): string {
  try {
    return checkRegistryUrl(value);
  } catch (error) {
    if (!(error instanceof RegistryUrlError)) throw error;
    const instead =
      error.suggestion === undefined ? `pass its base URL, such as ${DEFAULT_REGISTRY}` : `did you mean --registry ${error.suggestion}?`;
    throw new UsageError(`--registry "${value}" ${error.problem}; ${instead}`);
  }
}

/** Adds the `--json` option every command has. */
export function withJsonOption(command: Command): Command {
  return command.option("--json", "print the result as JSON");
}

/** Prints `value` as indented JSON, one document. */
export function printJson(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}
