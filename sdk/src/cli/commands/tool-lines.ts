import type { ToolSearchResult } from "../../registry-client/registry-client.js";
import type { ToolRecord } from "../../registry-client/tool-record.js";
import { printJson } from "../cli-context.js";
import type { CliIo } from "../cli-io.js";

/**
 * One line per tool (id, version, description), or the JSON as the registry sent it. An empty
 * answer says so on stderr (`none` names what matched nothing), so stdout stays one line per tool.
 */
export function printToolLines(
  io: CliIo,
  records: readonly (ToolRecord | ToolSearchResult)[],
  json: boolean | undefined,
  none: string,
): void {
  if (json) {
    printJson(io, records);
    return;
  }
  if (records.length === 0) io.err(`${none}\n`);
  for (const record of records) io.out(`${record.tool_id}\t${record.version ?? ""}\t${record.tool_search_description ?? ""}\n`);
}

/** "No tools match --type x --tag y." or the plain form without filters. */
export function noToolsLine(filters: { type?: string | undefined; tag?: string | undefined }, plain: string): string {
  const given = [
    filters.type === undefined ? "" : `--type ${filters.type}`,
    filters.tag === undefined ? "" : `--tag ${filters.tag}`,
  ].filter(Boolean);
  return given.length === 0 ? plain : `No tools match ${given.join(" ")}.`;
}
