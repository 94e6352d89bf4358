import { type Command, InvalidArgumentError, Option } from "commander";
import { KNOWN_MODE_NAMES } from "../permission/settings/mode-names.js";
import type { CliIo } from "./cli-io.js";
import type { McpCommandOptions } from "./serve-mcp.js";

/**
 * `agent-tools mcp`: serves registry tools (or local tool folders) and chosen built-ins to any MCP
 * host, every call through the permission engine with the user's settings files plus the rules and
 * mode given here. stdout carries the protocol on stdio, so everything else goes to stderr.
 */
export function registerMcpCommand(program: Command, io: CliIo, registryUrl: () => string): void {
  program
    .command("mcp")
    .description("serve registry tools and built-ins to an MCP host (stdio, or --http on loopback), governed by the permission engine")
    .argument("[tools...]", "tool ids (id or id@version) from the registry, or tool folders (a path: ./my-tool)")
    .option("--allow <rule>", "allow rule, e.g. text-stats or Read(./src/**) (repeatable)", collect, [])
    .option("--ask <rule>", "ask rule (repeatable)", collect, [])
    .option("--deny <rule>", "deny rule (repeatable)", collect, [])
    .option("--mode <mode>", `permission mode: ${KNOWN_MODE_NAMES.join(", ")}`)
    .option(
      "--builtin <names>",
      "built-in tools to serve, comma-separated, e.g. Read,Grep (repeatable)",
      (value: string, previous: string[]) => [...previous, ...splitList(value)],
      [],
    )
    .option("--http", "serve streamable HTTP on 127.0.0.1 instead of stdio")
    .addOption(new Option("--port <n>", "port for --http (default: any free port, printed at start)").argParser(port).default(0))
    // stdout carries the protocol on stdio, so --json shapes what goes to stderr: the start line and a failure.
    .option("--json", "print the start line (tools, transport, URL, mode) and any failure as JSON on stderr")
    // Loaded on use: the server pulls in the whole SDK, which the other commands do not need at startup.
    .action(async (refs: string[], options: McpCommandOptions) =>
      (await import("./serve-mcp.js")).serveMcp(refs, options, io, registryUrl()),
    );
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function splitList(value: string): string[] {
  return value
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new InvalidArgumentError("expected a port number (0-65535).");
  return parsed;
}
