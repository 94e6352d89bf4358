import { Command, InvalidArgumentError, Option } from "commander";
import { readFile, stat, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { RegistryClient, type ToolRecord, type ToolSearchResult } from "../registry-client/index.js";
import { deleteTool, packTool, uploadBundle, type UploadBundleOptions } from "../publish/index.js";
import type { CliIo } from "./cli-io.js";
import { registerPolicyCommands } from "./policy-command.js";
import { UsageError } from "./report-error.js";

const DEFAULT_REGISTRY = "http://127.0.0.1:6000";

/** The `agent-tools` commands; each is a thin shell over an SDK function. */
export function createProgram(io: CliIo): Command {
  const program = new Command("agent-tools")
    .description("Pack, publish and inspect Agent Tools registry tools.")
    .addOption(new Option("--registry <url>", "registry base URL").env("AGENT_TOOLS_REGISTRY").default(DEFAULT_REGISTRY))
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  const registryUrl = () => program.opts<{ registry: string }>().registry;
  const client = () => new RegistryClient(registryUrl());
  const writeToken = (token: string | undefined) => {
    if (!token) throw new UsageError("this command needs a write token: pass --token or set AGENT_TOOLS_TOKEN.");
    return token;
  };
  const tokenOption = () => new Option("--token <token>", "write token").env("AGENT_TOOLS_TOKEN");

  program
    .command("pack")
    .description("build the upload bundle (spec.json + tool.zip + tool.md) from a tool folder")
    .argument("<tool-dir>", "folder with spec.json, tool.md and code/")
    .option("-o, --output <file>", "bundle path (default: ./<tool_id>-bundle.zip)")
    .action(async (toolDir: string, options: { output?: string }) => {
      const packed = await packTool(resolve(io.cwd, toolDir));
      const output = resolve(io.cwd, options.output ?? `${packed.toolId}-bundle.zip`);
      await writeFile(output, packed.bundle);
      io.out(`Packed ${packed.toolId}@${packed.version} (tool.zip as ${packed.archiveFormat}) into ${output} (${packed.bundle.byteLength} bytes)\n`);
    });

  program
    .command("publish")
    .description("upload a tool folder or a bundle zip; large bundles go straight to storage")
    .argument("<tool-dir-or-bundle>", "a tool folder (packed on the fly) or a bundle .zip")
    .addOption(tokenOption())
    .addOption(new Option("--via <path>", "force the upload path").choices(["auto", "upload", "presigned"]).default("auto"))
    .action(async (target: string, options: { token?: string; via: UploadBundleOptions["via"] }) => {
      const token = writeToken(options.token);
      const path = resolve(io.cwd, target);
      const isFile = (await stat(path).catch(() => undefined))?.isFile() ?? false;
      const bundle = isFile ? new Uint8Array(await readFile(path)) : (await packTool(path)).bundle;
      const published = await uploadBundle(bundle, { registryUrl: registryUrl(), token, via: options.via });
      io.out(`Published ${published.tool_id}@${published.version} via ${published.via === "upload" ? "/tools/upload" : "presigned upload"} (${bundle.byteLength} bytes)\n`);
    });

  program
    .command("get")
    .description("print a tool's entry (latest, or id@version) as JSON")
    .argument("<id[@version]>", "tool id, optionally with @version")
    .action(async (reference: string) => {
      const { toolId, version } = parseReference(reference);
      const record = version === undefined ? await client().getTool(toolId) : await client().getToolVersion(toolId, version);
      io.out(`${JSON.stringify(record, null, 2)}\n`);
    });

  program
    .command("list")
    .description("list the latest version of every tool")
    .option("--type <type>", "only tools of this tool_type")
    .option("--tag <tag>", "only tools with this tag")
    .option("--json", "print the entries as a JSON array")
    .action(async (options: { type?: string; tag?: string; json?: boolean }) => {
      const records: ToolRecord[] = [];
      for await (const record of client().listAllTools({ type: options.type, tag: options.tag })) records.push(record);
      printRecords(io, records, options.json);
    });

  program
    .command("versions")
    .description("list a tool's versions, newest first")
    .argument("<id>", "tool id")
    .option("--json", "print the entries as a JSON array")
    .action(async (toolId: string, options: { json?: boolean }) => {
      const records = await client().listVersions(toolId);
      if (options.json) io.out(`${JSON.stringify(records, null, 2)}\n`);
      else for (const record of records) io.out(`${record.version ?? "0.0.0"}\t${record.published_at ?? ""}\n`);
    });

  program
    .command("search")
    .description("ranked search over ids, descriptions, tags, types and man pages")
    .argument("<query...>", "search words")
    .option("--limit <n>", "at most this many results", positiveInteger)
    .option("--json", "print the results as JSON")
    .action(async (words: string[], options: { limit?: number; json?: boolean }) => {
      const results = await client().searchTools({ q: words.join(" "), ...(options.limit === undefined ? {} : { limit: options.limit }) });
      printRecords(io, results, options.json);
    });

  program
    .command("delete")
    .description("delete a tool and all its versions")
    .argument("<id>", "tool id")
    .addOption(tokenOption())
    .action(async (toolId: string, options: { token?: string }) => {
      await deleteTool(toolId, { registryUrl: registryUrl(), token: writeToken(options.token) });
      io.out(`Deleted ${toolId}\n`);
    });

  registerPolicyCommands(program, io);
  return program;
}

function parseReference(reference: string): { toolId: string; version?: string } {
  const at = reference.lastIndexOf("@");
  if (at <= 0) return { toolId: reference };
  const version = reference.slice(at + 1);
  if (version === "") throw new UsageError(`"${reference}" ends with "@": write id@version, e.g. text-stats@1.0.0, or just the id.`);
  return { toolId: reference.slice(0, at), version };
}

/** One line per tool (id, version, description), or the JSON as the registry sent it. */
function printRecords(io: CliIo, records: readonly (ToolRecord | ToolSearchResult)[], json: boolean | undefined): void {
  if (json) {
    io.out(`${JSON.stringify(records, null, 2)}\n`);
    return;
  }
  for (const record of records) io.out(`${record.tool_id}\t${record.version ?? ""}\t${record.tool_search_description ?? ""}\n`);
}

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1) throw new InvalidArgumentError("expected a positive integer.");
  return parsed;
}
