import { Option, type Command } from "commander";
import { resolve } from "node:path";
import { Bash } from "../builtin/bash/bash-tool.js";
import { SANDBOX_ESCAPE_NAMES, type SandboxEscape } from "../builtin/bash/sandbox-escape.js";
import { commandPolicyTable } from "../builtin/shell/policy/policy-table.js";
import { PermissionEngine } from "../permission/permission-engine.js";
import { PermissionMode } from "../permission/types.js";
import { SANDBOX_MODES, type SandboxMode } from "../sandbox/sandbox-preflight.js";
import type { CliIo } from "./cli-io.js";

interface ExplainOptions {
  cwd?: string;
  mode: PermissionMode;
  allow: string[];
  ask: string[];
  deny: string[];
  sandbox: SandboxMode;
  sandboxEscape?: SandboxEscape;
  json?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/**
 * `agent-tools policy explain "<command>"`: the decision the permission engine makes for a Bash
 * command, and per simple command the read-only rule that judged it (`readonly.git.log`,
 * `readonly.sort.forbid.-o`); `agent-tools policy table`: the generated command table.
 */
export function registerPolicyCommands(program: Command, io: CliIo): void {
  const policy = program.command("policy").description("explain how the Bash permission policy decides a command");
  policy
    .command("explain")
    .description("print the decision for a command and the rule that judged each part (never runs it)")
    .argument("<command>", "the shell command, quoted as one argument")
    .option("--cwd <dir>", "the directory the command would run in (default: here)")
    .addOption(new Option("--mode <mode>", "permission mode").choices(Object.values(PermissionMode)).default(PermissionMode.DEFAULT))
    .option("--allow <rule>", "an allow rule such as 'Bash(git push:*)' (repeatable)", collect, [])
    .option("--ask <rule>", "an ask rule (repeatable)", collect, [])
    .option("--deny <rule>", "a deny rule (repeatable)", collect, [])
    .addOption(
      new Option("--sandbox <mode>", "the Bash tool's sandbox (auto: as the tool decides by default)")
        .choices(SANDBOX_MODES)
        .default("auto"),
    )
    .addOption(new Option("--sandbox-escape <name>", "the call asks to leave the sandbox (docs/sandbox.md)").choices(SANDBOX_ESCAPE_NAMES))
    .option("--json", "print the decision and the parts as JSON")
    .action(async (command: string, options: ExplainOptions) => {
      const cwd = resolve(io.cwd, options.cwd ?? ".");
      const bash = new Bash({ cwd, sandbox: { mode: options.sandbox, onWarning: (message) => io.err(`${message}\n`) } });
      const engine = new PermissionEngine({
        mode: options.mode,
        workingDirectories: [cwd],
        allow: options.allow,
        ask: options.ask,
        deny: options.deny,
      });
      const decision = await engine.checkPermission(bash, {
        command,
        ...(options.sandboxEscape ? { sandbox_escape: options.sandboxEscape } : {}),
      });
      const analysis = await bash.analyse(command);
      const parts = analysis.commands.map((part) => ({
        command: part.resolved.command.text,
        rule: part.readOnlyRule,
        readOnly: part.readOnlyProblem === undefined,
        problem: part.readOnlyProblem,
      }));
      if (options.json) {
        const { behavior, bypassImmune, message, reason } = decision;
        io.out(`${JSON.stringify({ behavior, bypassImmune, message, reason, unanalysable: analysis.unanalysable, parts }, null, 2)}\n`);
        return;
      }
      io.out(`decision: ${decision.behavior}${decision.bypassImmune ? " (bypass-immune)" : ""}: ${decision.message}\n`);
      if (decision.reason) io.out(`reason:   ${decision.reason}\n`);
      if (analysis.unanalysable) io.out(`unanalysable: ${analysis.unanalysable}\n`);
      for (const part of parts)
        io.out(
          `  ${part.readOnly ? "read-only " : "not read-only"}  ${part.rule}  ` +
            `${part.command}${part.problem ? `  (${part.problem})` : ""}\n`,
        );
    });
  policy
    .command("table")
    .description("print the read-only command table (docs/command-policy.md is generated from it)")
    .action(() => io.out(commandPolicyTable()));
}
