import { McpServerError } from "../errors.js";

interface McpServerCommonConfig {
  /**
   * Believe the server's `readOnlyHint` annotations, which lets the engine auto-allow those tools in
   * every mode, EXPLORE included. Off by default: the hint is the server's own claim about itself.
   */
  trustReadOnlyHint?: boolean;
  /** Per request (listing tools, each call). Default 60 s. */
  timeoutMs?: number;
  /** Starting the server, the MCP handshake and listing every tool. Default 30 s. */
  connectTimeoutMs?: number;
  /** A server listing more tools fails to connect (docs/mcp.md#limits). Default 500. */
  maxTools?: number;
  /** A tool result larger than this (UTF-8 JSON of its content) is truncated with a note. Default 262144 (256 KiB). */
  maxResultBytes?: number;
}

/** A server run as a child process speaking MCP over stdin/stdout. */
export interface McpStdioServerConfig extends McpServerCommonConfig {
  command: string;
  args?: string[];
  /** Added to the safe default environment (PATH, HOME, USER, …); the agent's secrets are not inherited. */
  env?: Record<string, string>;
  cwd?: string;
}

/** A server reached over streamable HTTP. */
export interface McpHttpServerConfig extends McpServerCommonConfig {
  url: string;
  /** Sent with every request, e.g. `{ Authorization: "Bearer …" }`. */
  headers?: Record<string, string>;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

export function isStdioConfig(config: McpServerConfig): config is McpStdioServerConfig {
  return "command" in config;
}

/** Throws McpServerError listing everything wrong with one server's configuration. */
export function checkServerConfig(server: string, config: unknown): McpServerConfig {
  const problems: string[] = [];
  if (config === null || typeof config !== "object" || Array.isArray(config)) {
    problems.push("it must be an object with either `command` (stdio) or `url` (streamable HTTP)");
  } else {
    const value = config as Record<string, unknown>;
    const hasCommand = value.command !== undefined;
    const hasUrl = value.url !== undefined;
    if (hasCommand === hasUrl) problems.push("give exactly one of `command` (stdio) or `url` (streamable HTTP)");
    if (hasCommand && (typeof value.command !== "string" || value.command === "")) problems.push("`command` must be a non-empty string");
    if (hasUrl) problems.push(...urlProblems(value.url));
    if (value.args !== undefined && !isStringArray(value.args)) problems.push("`args` must be an array of strings");
    for (const field of ["env", "headers"] as const) {
      if (value[field] !== undefined && !isStringRecord(value[field])) problems.push(`\`${field}\` must map names to strings`);
    }
    if (value.cwd !== undefined && typeof value.cwd !== "string") problems.push("`cwd` must be a string");
    if (value.trustReadOnlyHint !== undefined && typeof value.trustReadOnlyHint !== "boolean")
      problems.push("`trustReadOnlyHint` must be true or false");
    for (const field of ["timeoutMs", "connectTimeoutMs"] as const) {
      const ms = value[field];
      if (ms !== undefined && (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0))
        problems.push(`\`${field}\` must be a positive number of milliseconds`);
    }
    for (const field of ["maxTools", "maxResultBytes"] as const) {
      const count = value[field];
      if (count !== undefined && (typeof count !== "number" || !Number.isSafeInteger(count) || count <= 0))
        problems.push(`\`${field}\` must be a positive whole number`);
    }
  }
  if (problems.length > 0) {
    throw new McpServerError("MCP_CONFIG_INVALID", `MCP server "${server}" is misconfigured: ${problems.join("; ")}.`, { server });
  }
  return config as McpServerConfig;
}

function urlProblems(url: unknown): string[] {
  if (typeof url !== "string") return ["`url` must be a string such as http://127.0.0.1:7000/mcp"];
  try {
    const { protocol } = new URL(url);
    return protocol === "http:" || protocol === "https:" ? [] : [`\`url\` must be http:// or https://, not ${protocol}`];
  } catch {
    return [`\`url\` ${JSON.stringify(url)} is not a URL; write it like http://127.0.0.1:7000/mcp`];
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    value !== null && typeof value === "object" && !Array.isArray(value) && Object.values(value).every((item) => typeof item === "string")
  );
}
