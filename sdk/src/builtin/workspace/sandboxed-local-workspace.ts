import type { SandboxPlatform } from "../../sandbox/sandbox-platform.js";
import { chooseSandbox } from "../../sandbox/sandbox-preflight.js";
import { checkGrantedNames } from "../command-sandbox/bash-environment.js";
import { commandSandboxProfile, secretWalkLimitWarning } from "../command-sandbox/command-sandbox.js";
import { dangerousPathLists, type DangerousPathOptions } from "../paths/dangerous-paths.js";
import { LocalWorkspaceBackend } from "./local-workspace-backend.js";
import { projectFolder } from "./project-folder.js";
import { SandboxedWorkspaceBackend } from "./sandboxed-workspace-backend.js";
import { WorkspaceBase } from "./workspace.js";
import type { WorkspaceBackend } from "./workspace-backend.js";

export interface SandboxedLocalWorkspaceOptions extends DangerousPathOptions {
  /** The folder the agent works in, the only one commands can write. Default the process's cwd. */
  projectDirectory?: string;
  /** Let commands use the host's network. Default false: a network namespace holding only `lo`. */
  network?: boolean;
  /** Agent variables commands see besides the allowlist (docs/sandbox.md#the-bash-tool). Default none. */
  env?: string[];
  /** The sandbox mechanism; default bubblewrap on Linux. */
  platform?: SandboxPlatform;
  /** Receives a warning when the project is too big to search whole for secrets to mask. Default `console.warn`. */
  onWarning?: (message: string) => void;
}

/**
 * This machine, with every command (Bash, background commands) in the OS sandbox of the Bash tool
 * (docs/sandbox.md#the-bash-tool): the host read-only, the project folder the one writable folder,
 * secrets masked, the environment scrubbed, a private /tmp, no network unless `network`. Never
 * runs unsandboxed: `initialize` throws `SandboxUnavailableError` where the sandbox does not work.
 * File operations are the agent's own, judged by the file tools' permission checks.
 *
 * @example
 * const workspace = new SandboxedLocalWorkspace({ projectDirectory: "/work/app" });
 * await workspace.initialize();                       // SANDBOX_UNAVAILABLE without bubblewrap
 * const bash = new Bash({ backend: workspace.getBackend() });   // bash.sandboxStatus.confinedBy names the sandbox
 */
export class SandboxedLocalWorkspace extends WorkspaceBase {
  constructor(private readonly options: SandboxedLocalWorkspaceOptions = {}) {
    super();
    checkGrantedNames(options.env);
  }

  protected get label(): string {
    return "sandboxed local workspace";
  }

  protected async start(): Promise<WorkspaceBackend> {
    const cwd = projectFolder(this.options.projectDirectory, this.label);
    const warn = this.options.onWarning ?? console.warn;
    const choice = chooseSandbox("required", "The sandboxed local workspace's commands", { platform: this.options.platform, warn });
    if (!choice.sandboxed) throw new Error("unreachable: a required sandbox either starts or throws");
    const network = this.options.network ?? false;
    const settings = {
      writableDirectories: [cwd],
      walkedDirectories: [cwd],
      network,
      env: [...(this.options.env ?? [])],
      lists: dangerousPathLists(this.options),
      onLimit: secretWalkLimitWarning(warn),
    };
    return new SandboxedWorkspaceBackend(
      new LocalWorkspaceBackend({ cwd }),
      choice.platform,
      () => commandSandboxProfile(settings, { revealed: () => false }),
      { description: `the OS sandbox (${choice.platform.name})`, writableDirectories: [cwd], network },
    );
  }
}
