import type { ToolSearchResult } from "../../registry-client/registry-client.js";
import type { ToolRecord } from "../../registry-client/tool-record.js";
import { printJson } from "../cli-context.js";
import type { CliIo } from "../cli-io.js";

/**
 * A tool in a list, as `list --json` and `search --json` both print it (search adds its `score`):
 * one shape for one kind of answer, whichever command asked. `agent-tools get <id>` prints the whole entry.
 */
export interface ToolSummary {
  tool_id: string;
  version: string;
  tool_type: string;
  tool_tags: string[];
  tool_search_description: string;
  score?: number;
}

export function toolSummary(record: ToolRecord | ToolSearchResult): ToolSummary {
  return {
    tool_id: record.tool_id,
    version: record.version ?? "0.0.0",
    tool_type: record.tool_type ?? "",
    tool_tags: record.tool_tags ?? [],
    tool_search_description: record.tool_search_description ?? "",
    ...("score" in record && typeof record.score === "number" ? { score: record.score } : {}),
  };
}

/**
 * One line per tool (id, version, description), or the summaries as JSON. An empty answer says so
 * on stderr (`none` names what matched nothing), so stdout stays one line per tool.
 */
export function printToolLines(
  io: CliIo,
  records: readonly (ToolRecord | ToolSearchResult)[],
  json: boolean | undefined,
  none: string,
): void {
  const summaries = records.map(toolSummary);
  if (json) {
    printJson(io, summaries);
    return;
  }
  if (summaries.length === 0) io.err(`${none}\n`);
  for (const summary of summaries) io.out(`${summary.tool_id}\t${summary.version}\t${summary.tool_search_description}\n`);
}

/** "No tools match --type x --tag y." or the plain form without filters. */
export function noToolsLine(filters: { type?: string | undefined; tag?: string | undefined }, plain: string): string {
  const given = [
    filters.type === undefined ? "" : `--type ${filters.type}`,
    filters.tag === undefined ? "" : `--tag ${filters.tag}`,
  ].filter(Boolean);
  return given.length === 0 ? plain : `No tools match ${given.join(" ")}.`;
}
