import type { SandboxProfile } from "../../sandbox/sandbox-profile.js";
import type { DangerousPathLists } from "../paths/dangerous-paths.js";
import { sandboxEnvironment } from "./bash-environment.js";
import { hiddenSecrets } from "./hidden-secrets.js";

/** What a command sandbox on the host profile allows (docs/sandbox.md#the-bash-tool), fixed when it is set up. */
export interface CommandSandboxSettings {
  /** Real paths: the only folders commands can write (besides a private /tmp). */
  writableDirectories: readonly string[];
  /** Real paths walked for secret files to mask (the writable folders and the cwd). */
  walkedDirectories: readonly string[];
  network: boolean;
  /** Agent variables granted beyond the allowlist. */
  env: readonly string[];
  lists: DangerousPathLists;
  /** Told once per walked folder too big to search whole. */
  onLimit: (directory: string, limit: string) => void;
}

/**
 * The profile one command runs under, computed when it starts so a secret that appeared since the
 * last command is masked too: the host read-only, the writable folders writable, secrets hidden
 * (but those `revealed`), the environment scrubbed, and the network when the settings or the
 * command's escape allow it. The Bash tool's sandbox and `SandboxedLocalWorkspace` share it.
 */
export function commandSandboxProfile(
  settings: CommandSandboxSettings,
  launch: { revealed: (path: string) => boolean; network?: boolean },
): Omit<SandboxProfile, "cwd"> {
  return {
    base: "host",
    readOnly: [],
    writable: [...settings.writableDirectories],
    network: { kind: settings.network || launch.network === true ? "host" : "none" },
    hidden: hiddenSecrets({
      lists: settings.lists,
      workingDirectories: settings.walkedDirectories,
      revealed: launch.revealed,
      onLimit: settings.onLimit,
    }),
    env: sandboxEnvironment(process.env, settings.env),
  };
}

/** An `onLimit` that warns once per folder, saying which secrets stay readable. */
export function secretWalkLimitWarning(warn: (message: string) => void): (directory: string, limit: string) => void {
  const warned = new Set<string>();
  return (directory, limit) => {
    if (warned.has(directory)) return;
    warned.add(directory);
    warn(
      `agent-tools: the Bash sandbox hides the secret files of ${directory} only down to where its search ` +
        `stopped (${limit}); deeper ones stay readable to commands (see docs/sandbox.md#secrets-hidden).`,
    );
  };
}
