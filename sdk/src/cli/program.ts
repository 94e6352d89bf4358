import { createRequire } from "node:module";
import { Command, Option } from "commander";
import { cliContext, DEFAULT_REGISTRY } from "./cli-context.js";
import type { CliIo } from "./cli-io.js";
import { registerAuditCommand } from "./commands/audit-command.js";
import { registerDeleteCommand } from "./commands/delete-command.js";
import { registerInitCommand } from "./commands/init-command.js";
import { registerKeyCommand } from "./commands/key-command.js";
import { registerLifecycleCommands } from "./commands/lifecycle-commands.js";
import { registerPackCommand } from "./commands/pack-command.js";
import { registerPermissionsCommand } from "./commands/permissions-command.js";
import { registerPublishCommand } from "./commands/publish-command.js";
import { registerReadCommands } from "./commands/read-commands.js";
import { registerRunCommand } from "./commands/run-command.js";
import { registerTokenCommand } from "./commands/token-command.js";
import { registerTrustCommand } from "./commands/trust-command.js";
import { addCommandExamples } from "./command-examples.js";
import { EXIT_CODES_HELP } from "./exit-codes.js";
import { registerMcpCommand } from "./mcp-command.js";
import { registerPolicyCommands } from "./policy-command.js";
import { registerRegistryCommand } from "./commands/registry-command.js";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

/** The `agent-tools` commands; each is a thin shell over an SDK function, in its own module under commands/. */
export function createProgram(io: CliIo): Command {
  const program = new Command("agent-tools")
    .description("Create, run, pack, publish and inspect Agent Tools registry tools.")
    .version(version, "-V, --version", "print the version")
    .addOption(new Option("--registry <url>", "registry base URL").env("AGENT_TOOLS_REGISTRY").default(DEFAULT_REGISTRY))
    .addHelpText("after", EXIT_CODES_HELP)
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    // Subcommands inherit this: their help lists --registry and --version beside their own options.
    .configureHelp({ showGlobalOptions: true });
  const context = cliContext(program, io);

  registerInitCommand(program, context);
  registerRunCommand(program, context);
  registerPackCommand(program, context);
  registerPublishCommand(program, context);
  registerReadCommands(program, context);
  registerDeleteCommand(program, context);
  registerPolicyCommands(program, io);
  registerMcpCommand(program, context.io, context.registryUrl);
  registerRegistryCommand(program, context);
  registerTokenCommand(program, context);
  registerAuditCommand(program, context);
  registerLifecycleCommands(program, context);
  registerKeyCommand(program, context);
  registerTrustCommand(program, context);
  registerPermissionsCommand(program, context);
  addCommandExamples(program);

  return program;
}
