/**
 * Tool names that belong to the SDK (docs/permissions.md#one-namespace-for-tools): every `ToolBase`
 * it ships, the pseudo tools its own permission questions are decided as, and the prefix of MCP
 * tools. The registry refuses a tool id whose Toolkit name would be one of them, and the Toolkit
 * refuses any tool but the SDK's own under them, both case-insensitively, so a rule written for
 * `Read` can only ever govern the built-in Read. Data, one reason per entry, so the list is
 * reviewed entry by entry; a test keeps it equal to the tools the SDK ships.
 */
export interface ReservedToolName {
  name: string;
  reason: string;
}

export const RESERVED_TOOL_NAMES: readonly ReservedToolName[] = [
  { name: "Bash", reason: "the built-in shell tool" },
  { name: "Read", reason: "the built-in file reader" },
  { name: "Write", reason: "the built-in file writer" },
  { name: "Edit", reason: "the built-in file editor" },
  { name: "Glob", reason: "the built-in file finder" },
  { name: "Grep", reason: "the built-in content search" },
  { name: "TaskCreate", reason: "a built-in plan tool" },
  { name: "TaskGet", reason: "a built-in plan tool" },
  { name: "TaskList", reason: "a built-in plan tool" },
  { name: "TaskUpdate", reason: "a built-in plan tool" },
  { name: "SearchTools", reason: "the tool search's meta tool that searches the registry" },
  { name: "AddTool", reason: "the tool search's meta tool that adds a registry tool" },
  { name: "Skill", reason: "the skill viewer" },
  { name: "reset_tools", reason: "the Toolkit's meta tool that switches tool groups" },
  { name: "Capability", reason: "the name sandbox capability requests are decided under: Capability(...) rules" },
  { name: "PublisherKey", reason: "the name a publisher's changed signing key is asked about under: PublisherKey(...) rules" },
  { name: "ToolDefinition", reason: "the name a registry tool's changed definition is asked about under: ToolDefinition(...) rules" },
];

export const RESERVED_TOOL_NAME_PREFIXES: readonly { prefix: string; reason: string }[] = [
  { prefix: "mcp__", reason: "MCP servers' tools are named mcp__<server>__<tool>, and mcp__<server> rules govern a whole server" },
];

const BY_LOWER_NAME = new Map(RESERVED_TOOL_NAMES.map((entry) => [entry.name.toLowerCase(), entry]));

/**
 * The reservation `name` falls under, compared case-insensitively: an exact reserved name (whose
 * owner is `name` in its SDK spelling) or a reserved prefix (owner undefined: only MCP tools).
 */
export function reservedToolName(name: string): { owner: string | undefined; reason: string } | undefined {
  const lower = name.toLowerCase();
  const exact = BY_LOWER_NAME.get(lower);
  if (exact !== undefined) return { owner: exact.name, reason: exact.reason };
  const prefix = RESERVED_TOOL_NAME_PREFIXES.find((entry) => lower.startsWith(entry.prefix));
  return prefix === undefined ? undefined : { owner: undefined, reason: prefix.reason };
}

/**
 * What a tool id's Toolkit name (`toolNameFromId`) collides with, in words, or undefined when the
 * id may be published: the registry's upload answer names it.
 */
export function reservedToolIdProblem(toolId: string, toolName: string): string | undefined {
  const reserved = reservedToolName(toolName);
  if (reserved === undefined) return undefined;
  const as = toolName === toolId ? "" : ` (its name in a Toolkit is ${JSON.stringify(toolName)})`;
  const what =
    reserved.owner === undefined
      ? `starts with a reserved prefix, case-insensitively: ${reserved.reason}`
      : `is reserved, case-insensitively, for ${reserved.reason} (${reserved.owner})`;
  return (
    `it${as} ${what}; a rule written for the SDK's own tool must never govern a published ` +
    `one. Choose another id, e.g. "acme-${toolId.toLowerCase().replace(/^mcp_+/, "")}"`
  );
}
