import type { Command } from "commander";
import { deleteTool } from "../../publish/delete-tool.js";
import { printJson, withJsonOption, type CliContext } from "../cli-context.js";
import { AgentToolsError } from "../../errors.js";
import { tokenOption } from "./token-option.js";

export function registerDeleteCommand(program: Command, context: CliContext): void {
  const { io } = context;
  withJsonOption(
    program
      .command("delete")
      .description("delete a tool and all its versions (asks first on a terminal)")
      .argument("<id>", "tool id")
      .addOption(tokenOption())
      .option("-y, --yes", "do not ask for confirmation"),
  ).action(async (toolId: string, options: { token?: string; yes?: boolean; json?: boolean }) => {
    const token = context.writeToken(options.token);
    const registryUrl = context.registryUrl();
    if (!options.yes && io.interactive && io.ask) {
      const answer = await io.ask(`Delete ${toolId} and every version of it from ${registryUrl}? Type the tool id to confirm: `);
      if (answer.trim() !== toolId) throw new AgentToolsError("CLI_CANCELLED", `not deleted: the answer was not "${toolId}" (pass --yes to skip the question).`, { toolId });
    }
    await deleteTool(toolId, { registryUrl, token });
    if (options.json) printJson(io, { deleted: toolId });
    else io.out(`Deleted ${toolId}\n`);
  });
}
