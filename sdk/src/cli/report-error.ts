import { CommanderError } from "commander";
import { AgentToolsError } from "../errors.js";
import { BundleTransferError } from "../publish/publish-errors.js";
import { RegistryError, RegistryUnavailableError, ToolNotFoundError } from "../registry-client/registry-errors.js";
import type { CliIo } from "./cli-io.js";
import { EXIT } from "./exit-codes.js";

/** A command-line mistake the user fixes by changing the invocation. */
export class UsageError extends AgentToolsError {
  constructor(message: string) {
    super("CLI_USAGE", message);
  }
}

/** One failure as the CLI reports it: in the CLI's own terms (options, variables, commands), with its exit status. */
export interface CliFailure {
  exitCode: number;
  code: string;
  message: string;
  status?: number;
  detail?: string;
}

/**
 * Prints one clear line, or with `--json` one JSON object `{"error": {...}}` on stderr, and returns
 * the exit status. Commander has already printed its own usage errors.
 */
export function reportError(error: unknown, io: CliIo, json = false): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  const failure = describeFailure(error);
  io.err(json ? `${JSON.stringify({ error: failure })}\n` : `agent-tools: ${failure.message}\n`);
  return failure.exitCode;
}

const TOKEN_HINT = "pass the registry's write token with --token <token> or AGENT_TOOLS_TOKEN (npm start prints it on its first start)";
const REGISTRY_HINT = "check that it is running (npm start) and that --registry (or AGENT_TOOLS_REGISTRY) names it";

export function describeFailure(error: unknown): CliFailure {
  if (error instanceof UsageError) return { exitCode: EXIT.usage, code: error.code, message: error.message };
  if (error instanceof RegistryUnavailableError) {
    return {
      exitCode: EXIT.unreachable,
      code: error.code,
      message: `cannot reach the registry at ${error.url} (${error.reason}): ${REGISTRY_HINT}.`,
    };
  }
  if (error instanceof BundleTransferError && error.status === undefined)
    return { exitCode: EXIT.unreachable, code: error.code, message: error.message };
  if (error instanceof ToolNotFoundError) {
    const version = /has no version "([^"]*)"/.exec(error.detail)?.[1];
    const message =
      version === undefined
        ? `no tool "${error.toolId}" in the registry; \`agent-tools list\` shows the published tools, \`agent-tools search <words>\` finds one.`
        : `tool "${error.toolId}" has no version ${version}; \`agent-tools versions ${error.toolId}\` lists its versions.`;
    return { exitCode: EXIT.failed, code: error.code, message, status: 404, detail: error.detail };
  }
  if (error instanceof RegistryError) {
    const base = { exitCode: EXIT.failed, code: error.code, status: error.status, detail: error.detail };
    const answered = `${error.error} (HTTP ${error.status})`;
    // A publisher token the registry knows but no longer accepts: its detail says why and whom to ask.
    if (error.status === 401 && /\b(expired|revoked)\b/.test(error.detail)) return { ...base, message: `${answered}: ${error.detail}` };
    if (error.status === 401) return { ...base, message: `${answered}: the write token is missing or wrong; ${TOKEN_HINT}.` };
    if (error.status === 413) {
      const detail = error.detail ? `: ${error.detail}` : "";
      return {
        ...base,
        message: `${answered}${detail}. Bundles over the gateway's limit go through storage: publish with --via presigned, or make tool.zip smaller.`,
      };
    }
    return { ...base, message: `${answered}${error.detail ? `: ${error.detail}` : ""}` };
  }
  if (error instanceof AgentToolsError) return { exitCode: EXIT.failed, code: error.code, message: error.message };
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { exitCode: EXIT.failed, code: "CLI_UNEXPECTED", message: `unexpected failure: ${text}` };
}
