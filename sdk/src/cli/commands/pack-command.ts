import type { Command } from "commander";
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { packTool } from "../../publish/pack-tool.js";
import { printJson, withJsonOption, type CliContext } from "../cli-context.js";
import { existingPath } from "./local-path.js";
import { printWarnings } from "./warnings.js";

export function registerPackCommand(program: Command, { io }: CliContext): void {
  withJsonOption(
    program
      .command("pack")
      .description("build the upload bundle (spec.json + tool.zip + tool.md) from a tool folder")
      .argument("<tool-dir>", "folder with spec.json, tool.md and code/")
      .option("-o, --output <file>", "bundle path (default: ./<tool_id>-bundle.zip)"),
  ).action(async (toolDir: string, options: { output?: string; json?: boolean }) => {
    const folder = await existingPath(io, toolDir);
    const packed = await packTool(folder.path);
    const output = resolve(io.cwd, options.output ?? `${packed.toolId}-bundle.zip`);
    await writeFile(output, packed.bundle);
    if (options.json) {
      printJson(io, {
        tool_id: packed.toolId,
        version: packed.version,
        archive_format: packed.archiveFormat,
        output,
        bytes: packed.bundle.byteLength,
        warnings: packed.warnings,
      });
      return;
    }
    io.out(
      `Packed ${packed.toolId}@${packed.version} (tool.zip as ` +
        `${packed.archiveFormat}) into ${output} (${packed.bundle.byteLength} bytes)\n`,
    );
    printWarnings(io, packed.warnings);
  });
}
