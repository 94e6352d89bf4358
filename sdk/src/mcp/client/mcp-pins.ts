import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { canonicalize } from "json-canonicalize";
import { writeAtomically } from "../../atomic-file.js";
import { definitionChanges } from "../../trust/definition-changes.js";
import { McpServerError } from "../errors.js";
import { isStdioConfig, type McpServerConfig } from "./server-config.js";

/** An MCP tool's definition as approved: what the LLM is shown and what the engine reads from it. */
export interface McpToolDefinition {
  title: string | null;
  description: string | null;
  input_schema: unknown;
  annotations: unknown;
}

/** One approved definition and its digest. */
export interface McpPin {
  digest: string;
  definition: McpToolDefinition;
  pinnedAt: string;
}

/** A listed tool whose definition is not the approved one: its next call asks, showing `changes`. */
export interface McpDefinitionChange {
  digest: string;
  definition: McpToolDefinition;
  /** One readable line per change (`~ description: "…" → "…"`). */
  changes: string[];
}

interface PinsFile {
  version: 1;
  /** Server identity → tool name → pin. */
  servers: Record<string, Record<string, McpPin>>;
}

/**
 * The approved definitions of MCP tools (docs/mcp.md#pinned-definitions), per server identity (its
 * name and what it runs or reaches, so another command under the same name is a new server).
 * A tool seen for the first time is pinned as it is; a later listing with another definition
 * leaves the pin alone and reports the change, which the tool's next call asks about. Kept in
 * memory, or in `file` (JSON, written whole) so approvals outlive the process.
 */
export class McpPins {
  private readonly pins: PinsFile;

  constructor(private readonly file?: string) {
    this.pins = file === undefined ? { version: 1, servers: {} } : readPins(file);
  }

  /** Pins `tool` on first sight; otherwise the change from its approved definition, or undefined when there is none. */
  async check(identity: string, tool: Tool): Promise<McpDefinitionChange | undefined> {
    const definition = mcpToolDefinition(tool);
    const digest = definitionDigest(definition);
    const pinned = this.pins.servers[identity]?.[tool.name];
    if (pinned === undefined) {
      await this.approve(identity, tool.name, { digest, definition });
      return undefined;
    }
    if (pinned.digest === digest) return undefined;
    return { digest, definition, changes: definitionChanges(pinned.definition, definition) };
  }

  /** Records `change` as the approved definition of `tool` (the user said yes to it). */
  async approve(identity: string, tool: string, change: Pick<McpDefinitionChange, "digest" | "definition">): Promise<void> {
    const server = (this.pins.servers[identity] ??= {});
    server[tool] = { digest: change.digest, definition: change.definition, pinnedAt: new Date().toISOString() };
    if (this.file !== undefined) await writeAtomically(this.file, `${JSON.stringify(this.pins, null, 2)}\n`);
  }
}

/** Whose pins a server's tools share: its name and the command line or URL it is reached by. */
export function serverIdentity(server: string, config: McpServerConfig): string {
  const target = isStdioConfig(config) ? ["stdio", config.command, ...(config.args ?? []), config.cwd ?? ""] : ["http", config.url];
  return JSON.stringify([server, ...target]);
}

export function mcpToolDefinition(tool: Tool): McpToolDefinition {
  return {
    title: tool.title ?? null,
    description: tool.description ?? null,
    input_schema: tool.inputSchema,
    annotations: tool.annotations ?? null,
  };
}

function definitionDigest(definition: McpToolDefinition): string {
  return `sha256:${createHash("sha256").update(canonicalize(definition)).digest("hex")}`;
}

function readPins(file: string): PinsFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, servers: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const servers = (parsed as Partial<PinsFile> | undefined)?.servers;
  if ((parsed as Partial<PinsFile> | undefined)?.version !== 1 || servers === null || typeof servers !== "object") {
    throw new McpServerError(
      "MCP_CONFIG_INVALID",
      `The MCP pins file ${file} is not a pins file ({"version": 1, "servers": {...}}); move it away and approve the tools again.`,
    );
  }
  return parsed as PinsFile;
}
