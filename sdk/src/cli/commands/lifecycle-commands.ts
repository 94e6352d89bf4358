import type { Command } from "commander";
import { setVersionStatus, type VersionStatusChange } from "../../publish/version-lifecycle.js";
import { printJson, type CliContext } from "../cli-context.js";
import { UsageError } from "../report-error.js";
import { withWriteOptions, writeRequest, type WriteOptions } from "./token-option.js";
import { parseVersionReference } from "./tool-reference.js";

/**
 * `agent-tools yank <id>@<v> --reason …` and `agent-tools deprecate <id>@<v> --message …`
 * (`--undo` makes the version active again): a version's status (docs/registry.md).
 */
export function registerLifecycleCommands(program: Command, context: CliContext): void {
  for (const kind of [
    { name: "yank", status: "yanked", field: "reason", help: "hide a version from latest, listings and search (exact pins keep working)" },
    { name: "deprecate", status: "deprecated", field: "message", help: "mark a version deprecated: agents are warned when they add it" },
  ] as const) {
    withWriteOptions(
      program
        .command(kind.name)
        .description(kind.help)
        .argument("<id@version>", "the version, e.g. text-stats@1.2.0")
        .option(`--${kind.field} <text>`, `why (required): shown to everyone who resolves this version`)
        .option("--undo", "make the version active again"),
    ).action(async (reference: string, options: WriteOptions & { reason?: string; message?: string; undo?: boolean }) => {
      const { toolId, version } = parseVersionReference(reference);
      const text = options[kind.field];
      if (!options.undo && (text === undefined || text.trim() === ""))
        throw new UsageError(
          `${kind.name} needs --${kind.field} "<why>", e.g. ${kind.name} ${reference} --${kind.field} "use 2.x instead".`,
        );
      const change: VersionStatusChange = options.undo
        ? { status: "active" }
        : kind.status === "yanked"
          ? { status: "yanked", reason: text! }
          : { status: "deprecated", message: text! };
      const entry = await setVersionStatus(toolId, version, change, writeRequest(context, options));
      if (options.json) printJson(context.io, entry);
      else
        context.io.out(
          `${toolId}@${version} is now ` +
            `${String(entry.status)}${entry.status_message === undefined ? "" : `: ${String(entry.status_message)}`}\n`,
        );
    });
  }
}
