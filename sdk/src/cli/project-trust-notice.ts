import type { ProjectTrust } from "../permission/settings/project-trust.js";
import { shellWord } from "./commands/shell-word.js";

/**
 * What an untrusted working folder's settings files tried to raise, and the command that lets
 * them (docs/permissions.md#trusted-folders); undefined when the folder is trusted or raises
 * nothing. Every command that reads the settings prints it on stderr.
 */
export function projectTrustNotice(trust: ProjectTrust): string | undefined {
  if (trust.trusted || trust.raises.length === 0) return undefined;
  const tried = trust.raises.map(({ file, setting }) => `  ${file}: ${setting}\n`).join("");
  return (
    `agent-tools: the settings in ${trust.folder} are not trusted, so what they raise is not applied (their deny and ask rules are):\n` +
    `${tried}If you trust this folder's settings as they are now, run: agent-tools permissions trust ${shellWord(trust.folder)}\n`
  );
}
