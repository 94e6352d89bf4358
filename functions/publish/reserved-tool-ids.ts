import { HttpProblem } from "../http-problem.js";

/** Path words under `/tools/` that routes own; a tool with such an id could never be fetched. */
const RESERVED = new Set(["upload", "uploads", "search", "query"]);

export function assertToolIdNotReserved(toolId: string): void {
  if (RESERVED.has(toolId.toLowerCase())) {
    throw new HttpProblem(
      422,
      "Failed to process tool package",
      `tool_id "${toolId}" is reserved by the registry's routes (${[...RESERVED].join(", ")}); choose another tool_id in spec.json.`,
    );
  }
}
