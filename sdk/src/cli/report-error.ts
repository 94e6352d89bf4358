import { CommanderError } from "commander";
import { AgentToolsError } from "../errors.js";
import { BundleTransferError } from "../publish/publish-errors.js";
import { RegistryError, RegistryUnavailableError, ToolNotFoundError } from "../registry-client/registry-errors.js";
import { RegistryUrlError } from "../registry-client/registry-url.js";
import { ToolCheckError, type ToolProblem } from "../publish/tool-check-error.js";
import { ToolInputInvalidError } from "../runtimes/runtime-errors.js";
import semver from "semver";
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
  /** What checks before publishing found (`TOOL_CHECK_FAILED`), each with its file. */
  problems?: ToolProblem[];
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
  if (error instanceof RegistryUrlError)
    return { exitCode: EXIT.usage, code: error.code, message: `${error.message} Pass it with --registry or AGENT_TOOLS_REGISTRY.` };
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
        ? `no tool "${error.toolId}" in the registry; \`agent-tools list\` ` +
          `shows the published tools, \`agent-tools search <words>\` finds one.`
        : `tool "${error.toolId}" has no version ${version}; \`agent-tools versions ${error.toolId}\` lists its versions.`;
    return { exitCode: EXIT.failed, code: error.code, message, status: 404, detail: error.detail };
  }
  if (error instanceof RegistryError)
    return { exitCode: EXIT.failed, code: error.code, status: error.status, detail: error.detail, message: registryAdvice(error) };
  if (error instanceof ToolCheckError) return { exitCode: EXIT.failed, code: error.code, message: error.message, problems: error.problems };
  if (error instanceof ToolInputInvalidError)
    return {
      exitCode: EXIT.failed,
      code: error.code,
      message:
        `${error.message} Pass the input with --input '<json>'; \`agent-tools ` +
        `get <id>\` shows its schema (tool_api_spec.entrypoints.execute.input).`,
    };
  if (error instanceof AgentToolsError) return { exitCode: EXIT.failed, code: error.code, message: error.message };
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { exitCode: EXIT.failed, code: "CLI_UNEXPECTED", message: `unexpected failure: ${text}` };
}

/** The registry's refusal, with the next step in the CLI's terms (its own detail names HTTP routes, for curl users). */
function registryAdvice(error: RegistryError): string {
  const answered = `${error.error} (HTTP ${error.status})`;
  const detail = error.detail ? `: ${error.detail}` : "";
  switch (error.code) {
    case "VERSION_EXISTS":
      return versionExistsAdvice(error.detail);
    case "INVALID_SPEC":
      return (
        `the registry refused spec.json${detail}. \`agent-tools pack ` + `<tool-dir>\` checks a tool folder the same way without uploading.`
      );
    case "INVALID_ARCHIVE":
    case "INVALID_BUNDLE":
      return `the registry refused the bundle${detail}. \`agent-tools pack <tool-dir>\` builds and checks one.`;
    case "REGISTRY_UNAUTHORIZED":
      // A publisher token the registry knows but no longer accepts: its detail says why and whom to ask.
      return /\b(expired|revoked)\b/.test(error.detail)
        ? `${answered}${detail}`
        : `${answered}: the write token is missing or wrong; ${TOKEN_HINT}.`;
    case "REGISTRY_FORBIDDEN":
      return `the registry refused the token passed with --token (or AGENT_TOOLS_TOKEN)${detail}`;
    case "REGISTRY_TOO_LARGE":
      return (
        `${answered}${detail}. Bundles over the gateway's limit go through ` +
        `storage: publish with --via presigned, or make tool.zip smaller.`
      );
    case "REGISTRY_CONFLICT":
      return `${answered}${detail} Run the same command again.`;
    case "REGISTRY_RATE_LIMITED":
      return `${answered}${detail} Run the command again after that.`;
    default:
      return `${answered}${detail}`;
  }
}

/** Bump the version, or replace that one version: never the whole tool (every version of it would go). */
function versionExistsAdvice(detail: string): string {
  const [, toolId, version] = /^Tool (\S+) version (\S+) already exists/.exec(detail) ?? [];
  if (toolId === undefined || version === undefined)
    return (
      "that version is already published, and published versions never change: raise tool_metadata.version " +
      "in spec.json and publish again, or replace it with `agent-tools delete <id>@<version>`, then publish."
    );
  const next = semver.inc(version, "patch");
  return (
    `${toolId}@${version} is already published, and published versions never change: raise ` +
    `tool_metadata.version in spec.json${next === null ? "" : ` (e.g. to "${next}")`} and publish ` +
    `again, or replace that version: \`agent-tools delete ${toolId}@${version}\`, then publish.`
  );
}
