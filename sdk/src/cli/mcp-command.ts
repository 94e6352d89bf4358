import { Command, InvalidArgumentError, Option } from "commander";
import { resolve } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { AgentTools } from "../agent-tools.js";
import { createBuiltinTools } from "../builtin/builtin-tools.js";
import { serveMcpOverHttp } from "../mcp/server/http-host.js";
import { createMcpToolServer } from "../mcp/server/tool-server.js";
import { PermissionEngine } from "../permission/permission-engine.js";
import { KNOWN_MODE_NAMES, parseModeName } from "../permission/settings/mode-names.js";
import { registryTools } from "../registry-tool/registry-tool.js";
import { Toolkit } from "../toolkit/toolkit.js";
import type { CliIo } from "./cli-io.js";
import { UsageError } from "./report-error.js";

interface McpCommandOptions {
  allow: string[];
  ask: string[];
  deny: string[];
  mode?: string;
  builtin: string[];
  http?: boolean;
  port: number;
}

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
    .option("--builtin <names>", "built-in tools to serve, comma-separated, e.g. Read,Grep (repeatable)", (value: string, previous: string[]) => [...previous, ...splitList(value)], [])
    .option("--http", "serve streamable HTTP on 127.0.0.1 instead of stdio")
    .addOption(new Option("--port <n>", "port for --http (default: any free port, printed at start)").argParser(port).default(0))
    .action((refs: string[], options: McpCommandOptions) => serveMcp(refs, options, io, registryUrl()));
}

async function serveMcp(refs: string[], options: McpCommandOptions, io: CliIo, registryUrl: string): Promise<void> {
  if (refs.length === 0 && options.builtin.length === 0) {
    throw new UsageError("name at least one tool to serve: tool ids or folders as arguments, or --builtin Read,Grep.");
  }
  const mode = options.mode === undefined ? undefined : parseModeName(options.mode);
  if (options.mode !== undefined && mode === undefined) throw new UsageError(`unknown --mode ${JSON.stringify(options.mode)}; use one of ${KNOWN_MODE_NAMES.join(", ")}.`);
  const engine = PermissionEngine.fromSettings({
    projectDir: io.cwd,
    code: { ...(mode === undefined ? {} : { mode }), allow: options.allow, ask: options.ask, deny: options.deny },
  });
  const builtins = createBuiltinTools(options.builtin, io.cwd);
  const agentTools = new AgentTools({ toolsDbUrl: registryUrl, onToolOutput: (toolId, _stream, text) => io.err(`[${toolId}] ${text}`) });
  try {
    for (const ref of refs) await agentTools.add(isPath(ref) ? { path: resolve(io.cwd, ref) } : ref);
    const toolkit = new Toolkit({ tools: [...registryTools(agentTools), ...builtins], skills: [agentTools], engine });
    const names = toolkit.getTools().map((tool) => tool.name).join(", ");
    const createServer = () => createMcpToolServer(toolkit, { instructions: "Tools from an Agent Tools registry; every call is checked against the user's permission rules." });
    if (options.http) {
      const host = await serveMcpOverHttp(createServer, { port: options.port });
      io.err(`agent-tools mcp: serving ${names} on ${host.url} (mode ${engine.mode})\n`);
      await stopSignal();
      await host.close();
    } else {
      const server = createServer();
      const closed = new Promise<void>((done) => (server.onclose = done));
      await server.connect(new StdioServerTransport());
      io.err(`agent-tools mcp: serving ${names} on stdio (mode ${engine.mode})\n`);
      await Promise.race([closed, stopSignal()]);
      await server.close();
    }
  } finally {
    await agentTools.close();
  }
}

/** Tool ids never hold a slash and never start with a dot, so those are folders (or tool.zip files). */
function isPath(ref: string): boolean {
  return ref.includes("/") || ref.includes("\\") || ref.startsWith(".");
}

function stopSignal(): Promise<void> {
  return new Promise((done) => {
    process.once("SIGINT", () => done());
    process.once("SIGTERM", () => done());
  });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function splitList(value: string): string[] {
  return value.split(",").map((name) => name.trim()).filter(Boolean);
}

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new InvalidArgumentError("expected a port number (0-65535).");
  return parsed;
}
