import { RESERVED_TOOL_IDS, reservedToolIdProblem, toolNameFromId } from "@agent-tools/sdk/tool-spec";
import { HttpProblem } from "../http-problem.js";

/**
 * Ids no tool may take: the path words under `/tools/` that routes own (a tool with such an id
 * could never be fetched), and ids whose Toolkit name is the SDK's own (`Read`, `reset_tools`,
 * `mcp__…`, case-insensitively; docs/permissions.md#one-namespace-for-tools), which rules written
 * for the SDK's tools would otherwise govern.
 */
export function assertToolIdNotReserved(toolId: string): void {
  if ((RESERVED_TOOL_IDS as readonly string[]).includes(toolId.toLowerCase())) {
    throw new HttpProblem(
      422,
      "Failed to process tool package",
      `tool_id "${toolId}" is reserved by the registry's routes (${RESERVED_TOOL_IDS.join(", ")}); choose another tool_id in spec.json.`,
    );
  }
  const problem = reservedToolIdProblem(toolId, toolNameFromId(toolId));
  if (problem !== undefined) throw new HttpProblem(422, "Failed to process tool package", `tool_id "${toolId}" is refused: ${problem}.`);
}
