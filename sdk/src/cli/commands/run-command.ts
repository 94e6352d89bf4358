import type { Command } from "commander";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolSource } from "../../agent-tools.js";
import { readArchive } from "../../archive/index.js";
import { printJson, type CliContext } from "../cli-context.js";
import { UsageError } from "../report-error.js";
import { progressBar } from "../progress-bar.js";
import { cacheDirOption } from "./cache-dir-option.js";
import { existingPath } from "./local-path.js";

export function registerRunCommand(program: Command, context: CliContext): void {
  const { io } = context;
  program
    .command("run")
    .description("run a tool through the SDK (its runtime and sandbox) and print the result as JSON")
    .argument("<tool>", "a registry tool (id or id@version), a tool folder, or a bundle / tool.zip file")
    .option("--input <json>", "the input object passed to execute", "{}")
    .option("--parameters <json>", "overrides merged into the tool's tool_parameters")
    .addOption(cacheDirOption())
    .option("--json", "print the result as JSON (it always is)")
    .action(async (target: string, options: { input: string; parameters?: string; cacheDir?: string }) => {
      const input = jsonObjectOption("--input", options.input);
      const parameters = options.parameters === undefined ? {} : jsonObjectOption("--parameters", options.parameters);
      const source = await runSource(context, target);
      // Loaded here, not at start-up: every other command stays as quick to start as the CLI itself.
      const { AgentTools } = await import("../../agent-tools.js");
      const bar = progressBar(io, `Downloading ${target}`);
      const tools = new AgentTools({
        onDownloadProgress: (_toolId, received, total) => bar.update(received, total),
        ...(source.registry ? { toolsDbUrl: context.registryUrl() } : {}),
        ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
        // What the tool prints goes to stderr, so stdout is the result alone.
        onToolOutput: (_toolId, _stream, text) => io.err(text),
      });
      try {
        const added = await tools.add(source.source, parameters).finally(() => bar.finish());
        printJson(io, (await tools.executeToolById(added.toolId, input)) ?? null);
      } finally {
        await tools.close();
        await source.cleanup();
      }
    });
}

interface RunSource {
  source: ToolSource;
  registry: boolean;
  cleanup(): Promise<void>;
}

const nothingToClean = async () => undefined;

/** A path on disk runs locally (a bundle is unpacked to a temp folder first); anything else names a registry tool. */
async function runSource(context: CliContext, target: string): Promise<RunSource> {
  const looksLikePath = target.includes("/") || target.startsWith(".") || /\.(zip|tgz|tar\.gz)$/.test(target);
  if (!looksLikePath) {
    const onDisk = await existingPath(context.io, target).catch(() => undefined);
    if (onDisk === undefined) return { source: target, registry: true, cleanup: nothingToClean };
  }
  const local = await existingPath(context.io, target);
  if (!local.isFile) return { source: { path: local.path }, registry: false, cleanup: nothingToClean };
  const bytes = new Uint8Array(await readFile(local.path));
  const bundle = bundleFiles(bytes);
  if (bundle === undefined) return { source: { path: local.path }, registry: false, cleanup: nothingToClean }; // a tool.zip
  // A bundle: spec.json beside tool.zip, as `add({ path })` reads them.
  const folder = await mkdtemp(join(tmpdir(), "agent-tools-run-"));
  await Promise.all(Object.entries(bundle).map(([name, data]) => writeFile(join(folder, name), data)));
  return { source: { path: join(folder, "tool.zip") }, registry: false, cleanup: () => rm(folder, { recursive: true, force: true }) };
}

/** spec.json, tool.zip and tool.md when `bytes` is an upload bundle, else undefined. */
function bundleFiles(bytes: Uint8Array): Record<string, Uint8Array> | undefined {
  let entries: ReturnType<typeof readArchive>["entries"];
  try {
    entries = readArchive(bytes).entries;
  } catch {
    return undefined;
  }
  const files = Object.fromEntries(
    entries.filter((entry) => ["spec.json", "tool.zip", "tool.md"].includes(entry.path)).map((entry) => [entry.path, entry.data]),
  );
  return files["spec.json"] !== undefined && files["tool.zip"] !== undefined ? files : undefined;
}

function jsonObjectOption(name: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${name} is not valid JSON (${(error as Error).message}); quote it for the shell, e.g. ${name} '{"text": "hello"}'.`,
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new UsageError(`${name} must be a JSON object such as '{"text": "hello"}', got ${text.slice(0, 60)}.`);
  return value as Record<string, unknown>;
}
