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

  withJsonOption(program.command("versions").description("list a tool's versions, newest first").argument("<id>", "tool id")).action(
    async (toolId: string, options: { json?: boolean }) => {
      const records = await context.client().listVersions(toolId);
      if (options.json) printJson(io, records);
      else for (const record of records) io.out(`${record.version ?? "0.0.0"}\t${record.published_at ?? ""}\n`);
    },
  );

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
