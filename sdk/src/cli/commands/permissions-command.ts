import { resolve } from "node:path";
import type { Command } from "commander";
import { AgentToolsError } from "../../errors.js";
import { listAllowGrants, revokeAllowRule } from "../../permission/settings/allow-grants.js";
import { listTrustedFolders, trustProjectFolder, untrustProjectFolder } from "../../permission/settings/trusted-folders.js";
import type { SettingsLayer } from "../../permission/settings/settings-layers.js";
import { printJson, withJsonOption, type CliContext } from "../cli-context.js";
import { UsageError } from "../report-error.js";
import { registerDecisionLogCommand } from "./decision-log-command.js";
import { shellWord } from "./shell-word.js";

/** `permissions revoke` of a rule no settings file holds: exit status 1, like a 404. */
export class GrantNotFoundError extends AgentToolsError {
  constructor(message: string) {
    super("GRANT_NOT_FOUND", message);
  }
}

const LAYERS = ["user", "project", "local"] as const;

/**
 * `agent-tools permissions trust|untrust|grants|revoke|log` (docs/cli.md#permissions): which
 * working folders may raise permissions, the "always allow" rules and where they live, and what
 * the engine decided (the decision log).
 */
export function registerPermissionsCommand(program: Command, context: CliContext): void {
  const { io } = context;
  const permissions = program
    .command("permissions")
    .description("trusted folders, the always-allow rules and where they live, and the decision log");
  const folderOf = (folder: string | undefined) => resolve(io.cwd, folder ?? ".");

  withJsonOption(
    permissions
      .command("trust")
      .description("let the folder's .agent-tools settings raise permissions, as they are now (asked again when they change)")
      .argument("[folder]", "the project folder (default: the current one)"),
  ).action(async (folder: string | undefined, options: { json?: boolean }) => {
    const trusted = await trustProjectFolder({ projectDir: folderOf(folder) });
    if (options.json) return printJson(io, trusted);
    io.out(`Trusted ${trusted.folder} (${trusted.digest}), recorded in your user settings.\n`);
    if (trusted.raises.length === 0) io.out("Its settings files raise nothing today; a change to them will be asked about again.\n");
    else io.out(`These settings now apply:\n${trusted.raises.map(({ file, setting }) => `  ${file}: ${setting}\n`).join("")}`);
  });

  withJsonOption(
    permissions
      .command("untrust")
      .description("withdraw the folder's trust: its settings restrict again, but do not raise")
      .argument("[folder]", "the project folder (default: the current one)"),
  ).action(async (folder: string | undefined, options: { json?: boolean }) => {
    const removed = await untrustProjectFolder({ projectDir: folderOf(folder) });
    if (options.json) return printJson(io, { folder: folderOf(folder), untrusted: removed });
    io.out(removed ? `${folderOf(folder)} is no longer trusted.\n` : `${folderOf(folder)} was not trusted.\n`);
  });

  withJsonOption(
    permissions
      .command("grants")
      .description("list the always-allow rules of the user, project and local settings files, and the trusted folders")
      .option("--folder <folder>", "the project folder whose files to read (default: the current one)"),
  ).action(async (options: { folder?: string; json?: boolean }) => {
    const grants = listAllowGrants({ projectDir: folderOf(options.folder) });
    const folders = await listTrustedFolders();
    if (options.json) return printJson(io, { grants, trusted_folders: folders });
    if (grants.length === 0) io.out("No allow rules in the settings files.\n");
    for (const file of [...new Set(grants.map((grant) => grant.file))]) {
      const inFile = grants.filter((grant) => grant.file === file);
      const note = inFile[0]!.applied
        ? ""
        : `, not applied: the folder is not trusted (agent-tools permissions trust ${shellWord(folderOf(options.folder))})`;
      io.out(`${file} (${inFile[0]!.layer}${note})\n${inFile.map((grant) => `  ${grant.rule}\n`).join("")}`);
    }
    if (folders.length > 0) io.out("Trusted folders:\n");
    for (const folder of folders)
      io.out(
        `  ${folder.folder}\ttrusted ` +
          `${folder.trustedAt ?? "(no date)"}${folder.current ? "" : "\t(its settings changed since: not applied until trusted again)"}\n`,
      );
    io.out("Revoke a rule: agent-tools permissions revoke '<rule>'; a folder: agent-tools permissions untrust <folder>.\n");
  });

  withJsonOption(
    permissions
      .command("revoke")
      .description("remove an always-allow rule from the settings files that hold it")
      .argument("<rule>", 'the rule as listed by `permissions grants`, e.g. "Bash(npm run test:*)"')
      .option("--layer <layer>", `only this file: ${LAYERS.join(", ")}`, layerName)
      .option("--folder <folder>", "the project folder whose files to edit (default: the current one)"),
  ).action(async (rule: string, options: { layer?: Exclude<SettingsLayer, "code">; folder?: string; json?: boolean }) => {
    const changed = await revokeAllowRule(
      rule,
      { projectDir: folderOf(options.folder) },
      options.layer === undefined ? undefined : [options.layer],
    );
    if (changed.length === 0) {
      throw new GrantNotFoundError(
        `no allow rule ${JSON.stringify(rule)} in the ${options.layer ?? "user, project or local"} ` +
          `settings; \`agent-tools permissions grants\` lists them.`,
      );
    }
    if (options.json) return printJson(io, { rule, removed_from: changed });
    for (const file of changed) io.out(`Removed ${rule} from ${file}.\n`);
  });

  registerDecisionLogCommand(permissions, context);
}

function layerName(value: string): Exclude<SettingsLayer, "code"> {
  if (!(LAYERS as readonly string[]).includes(value)) throw new UsageError(`--layer must be one of ${LAYERS.join(", ")}, got "${value}".`);
  return value as Exclude<SettingsLayer, "code">;
}
