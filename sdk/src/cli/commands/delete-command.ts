import type { Command } from "commander";
import { deleteTool } from "../../publish/delete-tool.js";
import { deleteToolVersion } from "../../publish/version-lifecycle.js";
import { printJson, withJsonOption, type CliContext } from "../cli-context.js";
import { AgentToolsError } from "../../errors.js";
import { tokenOption } from "./token-option.js";
import { parseReference } from "./tool-reference.js";

export function registerDeleteCommand(program: Command, context: CliContext): void {
  const { io } = context;
  withJsonOption(
    program
      .command("delete")
      .description("delete a tool and all its versions, or one version with id@version (asks first on a terminal)")
      .argument("<id[@version]>", "tool id, or id@version for that version only")
      .addOption(tokenOption())
      .option("-y, --yes", "do not ask for confirmation"),
  ).action(async (reference: string, options: { token?: string; yes?: boolean; json?: boolean }) => {
    const { toolId, version } = parseReference(reference);
    const token = context.writeToken(options.token);
    const registryUrl = context.registryUrl();
    if (!options.yes && io.interactive && io.ask) {
      const what = version === undefined ? `${toolId} and every version of it` : `${toolId}@${version}`;
      const answer = await io.ask(`Delete ${what} from ${registryUrl}? Type ${version === undefined ? "the tool id" : "it"} to confirm: `);
      if (answer.trim() !== reference)
        throw new AgentToolsError("CLI_CANCELLED", `not deleted: the answer was not "${reference}" (pass --yes to skip the question).`, {
          toolId,
        });
    }
    if (version === undefined) await deleteTool(toolId, { registryUrl, token });
    else await deleteToolVersion(toolId, version, { registryUrl, token });
    if (options.json) printJson(io, { deleted: reference });
    else io.out(`Deleted ${reference}\n`);
  });
}
