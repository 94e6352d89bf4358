import { reservedToolName } from "../tool-spec/reserved-tool-names.js";
import type { PermissionSubject } from "./permission-subject.js";

const keysOf = new WeakMap<PermissionSubject, readonly string[]>();

/**
 * The rule lists that govern a tool (docs/permissions.md#rule-syntax): its name, the tools it
 * shares rules with, for MCP tools the whole server (`mcp__server`, `mcp__server__*`), and the
 * source-qualified names of its origin (`builtin:Read`, `registry:<tool id>`, `mcp:server`,
 * `mcp:server/tool`). A reserved name (`Read`, `mcp__…`) counts only for the SDK's own tool (or an
 * MCP tool): a rule written for the built-in never governs another tool that took its name.
 * Computed once per tool: names do not change.
 */
export function ruleKeys(tool: PermissionSubject): readonly string[] {
  let keys = keysOf.get(tool);
  if (keys === undefined) keysOf.set(tool, (keys = computeRuleKeys(tool)));
  return keys;
}

function computeRuleKeys(tool: PermissionSubject): string[] {
  const origin = tool.origin ?? { kind: "custom" };
  const builtin = origin.kind === "builtin";
  const answersTo = (name: string): boolean => {
    const reserved = reservedToolName(name);
    return reserved === undefined || (reserved.owner === undefined ? tool.isMcp : builtin && reserved.owner === name);
  };
  const names = [tool.name, ...(tool.sharesRulesWith ?? []).filter((name) => name !== tool.name)].filter(answersTo);
  const keys = [...names];
  if (tool.isMcp && tool.mcpName) keys.push(`mcp__${tool.mcpName}`, `mcp__${tool.mcpName}__*`);
  if (builtin) keys.push(...names.map((name) => `builtin:${name}`));
  if (origin.kind === "registry") keys.push(`registry:${origin.toolId}`);
  if (origin.kind === "mcp") keys.push(`mcp:${origin.server}`, `mcp:${origin.server}/${origin.tool}`);
  return [...new Set(keys)];
}
