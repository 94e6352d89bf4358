import { realpathSync } from "node:fs";
import type { SandboxPlatform } from "../../sandbox/sandbox-platform.js";
import { checkSandboxMode, chooseSandbox, type SandboxMode } from "../../sandbox/sandbox-preflight.js";
import type { DangerousPathLists } from "../paths/dangerous-paths.js";
import { SandboxedWorkspaceBackend } from "../workspace/sandboxed-workspace-backend.js";
import type { WorkspaceBackend } from "../workspace/workspace-backend.js";
import { checkGrantedNames } from "../command-sandbox/bash-environment.js";
import { commandSandboxProfile, secretWalkLimitWarning, type CommandSandboxSettings } from "../command-sandbox/command-sandbox.js";
import type { SandboxEscape } from "./sandbox-escape.js";

export interface BashSandboxOptions {
  mode: SandboxMode;
  /** Writable inside the sandbox. Default: the tool's cwd. */
  workingDirectories?: string[];
  /** Let commands use the host's network. Default false: a network namespace holding only `lo`. */
  network?: boolean;
  /**
   * Agent variables commands see besides the allowlist (docs/sandbox.md#the-bash-tool), credential
   * variables included once named here. Default none.
   */
  env?: string[];
  /** The sandbox mechanism; default bubblewrap on Linux. */
  platform?: SandboxPlatform;
  /** Receives the one-time warnings (`auto` running unsandboxed, a tree too big to search for secrets). Default `console.warn`. */
  onWarning?: (message: string) => void;
}

/** What the Bash tool's sandbox allows, as decided at construction. */
export interface BashSandboxStatus {
  /** True when commands run in the sandbox: the tool's own, or the one its backend confines them to (`confinedBy`). */
  readonly sandboxed: boolean;
  /**
   * When the backend confines commands itself (a `SandboxedLocalWorkspace`, a `DockerWorkspace`):
   * its description, and the tool adds no sandbox of its own; undefined otherwise.
   */
  readonly confinedBy: string | undefined;
  /** The only places commands can write (besides a private /tmp); empty when not sandboxed. */
  readonly writableDirectories: readonly string[];
  /** Whether commands reach the network (always true when not sandboxed). */
  readonly network: boolean;
  /** Agent variables granted beyond the allowlist; empty when not sandboxed (commands then get the whole environment). */
  readonly env: readonly string[];
  /** Why an `auto` sandbox is not in use; undefined otherwise. */
  readonly unavailableReason: string | undefined;
}

/** What changes from one command to the next: the escape it was allowed, and the paths `Read(...)` allow rules name. */
export interface BashLaunch {
  escape: SandboxEscape | undefined;
  revealed: (path: string) => boolean;
}

/**
 * The Bash tool's status and, per command, the backend it runs through for its `sandbox` option
 * (default `auto`): the plain backend when unsandboxed (or escaping to `unsandboxed`), else the
 * backend through the OS sandbox with the secrets of that moment hidden and the environment scrubbed.
 */
export function bashSandbox(
  backend: WorkspaceBackend,
  cwd: string,
  option: SandboxMode | BashSandboxOptions | undefined,
  lists: DangerousPathLists,
): { status: BashSandboxStatus; runner: (launch: BashLaunch) => WorkspaceBackend } {
  const options: BashSandboxOptions = typeof option === "object" ? option : { mode: option ?? "auto" };
  checkSandboxMode(options.mode);
  checkGrantedNames(options.env);
  const confinement = backend.confinement;
  if (confinement !== undefined) {
    // The backend confines commands itself (docs/workspaces.md#bash-in-a-workspace): a sandbox inside it would not start, nor add anything.
    const status: BashSandboxStatus = {
      sandboxed: true,
      confinedBy: confinement.description,
      writableDirectories: [...confinement.writableDirectories],
      network: confinement.network,
      env: [],
      unavailableReason: undefined,
    };
    return { status, runner: () => backend };
  }
  const warn = options.onWarning ?? console.warn;
  const choice = chooseSandbox(options.mode, "Bash commands", { platform: options.platform, warn });
  if (!choice.sandboxed) {
    const status = {
      sandboxed: false,
      confinedBy: undefined,
      writableDirectories: [],
      network: true,
      env: [],
      unavailableReason: choice.reason,
    };
    return { status, runner: () => backend };
  }
  // Real paths: a bind mount of a symlinked folder would otherwise land somewhere else.
  const writableDirectories = (options.workingDirectories ?? [cwd]).map((directory) => realpathSync(directory));
  const network = options.network ?? false;
  const granted = [...(options.env ?? [])];
  const settings: CommandSandboxSettings = {
    writableDirectories,
    walkedDirectories: [...new Set([realpathSync(cwd), ...writableDirectories])],
    network,
    env: granted,
    lists,
    onLimit: secretWalkLimitWarning(warn),
  };
  const runner = (launch: BashLaunch): WorkspaceBackend => {
    if (launch.escape === "unsandboxed") return backend;
    const profile = commandSandboxProfile(settings, { revealed: launch.revealed, network: launch.escape === "network" });
    return new SandboxedWorkspaceBackend(backend, choice.platform, profile);
  };
  const status = { sandboxed: true, confinedBy: undefined, writableDirectories, network, env: granted, unavailableReason: undefined };
  return { status, runner };
}
