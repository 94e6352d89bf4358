import { resolve } from "node:path";
import { AgentTools } from "../agent-tools.js";
import { createBuiltinTools } from "../builtin/builtin-tools.js";
import { serveMcpOverHttp } from "../mcp/server/http-host.js";
import { serveMcpOverStdio } from "../mcp/server/stdio-host.js";
import { createMcpToolServer } from "../mcp/server/tool-server.js";
import { PermissionSettingsError } from "../permission/errors.js";
import { PermissionEngine } from "../permission/permission-engine.js";
import { loadPermissionSettings } from "../permission/settings/load-permission-settings.js";
import { KNOWN_MODE_NAMES, parseModeName } from "../permission/settings/mode-names.js";
import { registryTools } from "../registry-tool/registry-tool.js";
import { Toolkit } from "../toolkit/toolkit.js";
import type { CliIo } from "./cli-io.js";
import { projectTrustNotice } from "./project-trust-notice.js";
import { UsageError } from "./report-error.js";

/** The options of `agent-tools mcp` (`mcp-command.ts`). */
export interface McpCommandOptions {
  allow: string[];
  ask: string[];
  deny: string[];
  mode?: string;
  builtin: string[];
  http?: boolean;
  port: number;
  json?: boolean;
}

/** `agent-tools mcp`'s work: builds the governed Toolkit, then serves it until the client leaves or a signal arrives. */
export async function serveMcp(refs: string[], options: McpCommandOptions, io: CliIo, registryUrl: string): Promise<void> {
  if (refs.length === 0 && options.builtin.length === 0) {
    throw new UsageError("name at least one tool to serve: tool ids or folders as arguments, or --builtin Read,Grep.");
  }
  const mode = options.mode === undefined ? undefined : parseModeName(options.mode);
  if (options.mode !== undefined && mode === undefined)
    throw new UsageError(`unknown --mode ${JSON.stringify(options.mode)}; use one of ${KNOWN_MODE_NAMES.join(", ")}.`);
  const settings = loadPermissionSettings({
    projectDir: io.cwd,
    code: { ...(mode === undefined ? {} : { mode }), allow: options.allow, ask: options.ask, deny: options.deny },
  });
  if (settings.issues.length > 0) throw new PermissionSettingsError(settings.issues);
  const notice = projectTrustNotice(settings.projectTrust);
  if (notice !== undefined) io.err(notice);
  const engine = new PermissionEngine(settings);
  const builtins = createBuiltinTools(options.builtin, io.cwd);
  // Listened for from the start, so a host's SIGTERM or a Ctrl-C, even while tools are still being
  // added, ends the command normally (status 0, workers stopped) rather than by Node's default.
  const stopped = stopSignal();
  const agentTools = new AgentTools({ toolsDbUrl: registryUrl, onToolOutput: (toolId, _stream, text) => io.err(`[${toolId}] ${text}`) });
  try {
    for (const ref of refs) await agentTools.add(isPath(ref) ? { path: resolve(io.cwd, ref) } : ref);
    const toolkit = new Toolkit({ tools: [...registryTools(agentTools), ...builtins], skills: [agentTools], engine });
    const names = toolkit.getTools().map((tool) => tool.name);
    const started = (transport: "stdio" | "http", url?: string) =>
      io.err(
        options.json
          ? `${JSON.stringify({ serving: names, transport, ...(url === undefined ? {} : { url }), mode: engine.mode })}\n`
          : `agent-tools mcp: serving ${names.join(", ")} on ${url ?? "stdio"} (mode ${engine.mode})\n`,
      );
    const createServer = () =>
      createMcpToolServer(toolkit, {
        instructions: "Tools from an Agent Tools registry; every call is checked against the user's permission rules.",
      });
    const host = options.http ? await serveMcpOverHttp(createServer, { port: options.port }) : await serveMcpOverStdio(createServer);
    if ("url" in host) started("http", host.url);
    else started("stdio");
    // A stdio session also ends when the host closes our input; either way the exit status is 0.
    await Promise.race(["closed" in host ? host.closed : new Promise<never>(() => undefined), stopped]);
    await host.close();
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
