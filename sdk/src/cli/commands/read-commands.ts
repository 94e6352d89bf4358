import { InvalidArgumentError, type Command } from "commander";
import type { ToolRecord } from "../../registry-client/tool-record.js";
import { printJson, withJsonOption, type CliContext } from "../cli-context.js";
import { noToolsLine, printToolLines } from "./tool-lines.js";
import { parseReference } from "./tool-reference.js";

/** `get`, `list`, `versions` and `search`: public reads of the registry. */
export function registerReadCommands(program: Command, context: CliContext): void {
  const { io } = context;
  withJsonOption(
    program
      .command("get")
      .description("print a tool's entry (latest, or id@version) as JSON")
      .argument("<id[@version]>", "tool id, optionally with @version"),
  ).action(async (reference: string) => {
    const { toolId, version } = parseReference(reference);
    const client = context.client();
    printJson(io, version === undefined ? await client.getTool(toolId) : await client.getToolVersion(toolId, version));
  });

  withJsonOption(
    program
      .command("list")
      .description("list the latest version of every tool")
      .option("--type <type>", "only tools of this tool_type")
      .option("--tag <tag>", "only tools with this tag"),
  ).action(async (options: { type?: string; tag?: string; json?: boolean }) => {
    const records: ToolRecord[] = [];
    for await (const record of context.client().listAllTools({ type: options.type, tag: options.tag })) records.push(record);
    printToolLines(
      io,
      records,
      options.json,
      noToolsLine(options, "No tools are published yet: `agent-tools publish <tool-dir>` adds one."),
    );
  });

  withJsonOption(
    program
      .command("versions")
      .description("list a tool's versions, newest first, each with its status (active, deprecated, yanked)")
      .argument("<id>", "tool id"),
  ).action(async (toolId: string, options: { json?: boolean }) => {
    // Yanked versions too: whoever asks for a tool's versions wants to see what became of each.
    const versions = (await context.client().listVersions(toolId, { includeYanked: true })).map(versionSummary);
    if (options.json) return printJson(io, versions);
    for (const version of versions)
      io.out(
        `${version.version}\t${version.status}\t${version.published_at}` +
          `${version.status_message === undefined ? "" : `\t${version.status_message}`}\n`,
      );
  });

  withJsonOption(
    program
      .command("search")
      .description("ranked search over ids, descriptions, tags, types and man pages")
      .argument("<query...>", "search words")
      .option("--type <type>", "only tools of this tool_type")
      .option("--tag <tag>", "only tools with this tag")
      .option("--limit <n>", "at most this many results (1-100)", positiveInteger),
  ).action(async (words: string[], options: { type?: string; tag?: string; limit?: number; json?: boolean }) => {
    const q = words.join(" ");
    const results = await context
      .client()
      .searchTools({ q, type: options.type, tag: options.tag, ...(options.limit === undefined ? {} : { limit: options.limit }) });
    const filters = [
      options.type === undefined ? "" : ` with --type ${options.type}`,
      options.tag === undefined ? "" : ` with --tag ${options.tag}`,
    ].join("");
    printToolLines(io, results, options.json, `No tools match "${q}"${filters}.`);
  });
}

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1) throw new InvalidArgumentError("expected a positive integer.");
  return parsed;
}

/** A version as `versions` prints it: what a reader needs to pick one, not the whole entry (`get id@version` prints that). */
function versionSummary(record: ToolRecord): {
  tool_id: string;
  version: string;
  status: string;
  status_message?: string;
  published_at: string;
} {
  const status = typeof record.status === "string" ? record.status : "active";
  return {
    tool_id: record.tool_id,
    version: record.version ?? "0.0.0",
    status,
    ...(typeof record.status_message === "string" && status !== "active" ? { status_message: record.status_message } : {}),
    published_at: record.published_at ?? "",
  };
}
