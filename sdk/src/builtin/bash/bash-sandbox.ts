import { realpathSync } from "node:fs";
import type { SandboxPlatform } from "../../sandbox/sandbox-platform.js";
import { checkSandboxMode, chooseSandbox, type SandboxMode } from "../../sandbox/sandbox-preflight.js";
import { SandboxedWorkspaceBackend } from "../workspace/sandboxed-workspace-backend.js";
import type { WorkspaceBackend } from "../workspace/workspace-backend.js";

export interface BashSandboxOptions {
  mode: SandboxMode;
  /** Writable inside the sandbox. Default: the tool's cwd. */
  workingDirectories?: string[];
  /** Let commands use the host's network. Default false: a network namespace holding only `lo`. */
  network?: boolean;
  /** The sandbox mechanism; default bubblewrap on Linux. */
  platform?: SandboxPlatform;
  /** Receives the one-time warning when `auto` runs unsandboxed. Default `console.warn`. */
  onWarning?: (message: string) => void;
}

/** What the Bash tool's sandbox allows, as decided at construction. */
export interface BashSandboxStatus {
  /** True when commands run in the sandbox. */
  readonly sandboxed: boolean;
  /** The only places commands can write (besides a private /tmp); empty when not sandboxed. */
  readonly writableDirectories: readonly string[];
  /** Whether commands reach the network (always true when not sandboxed). */
  readonly network: boolean;
  /** Why an `auto` sandbox is not in use; undefined otherwise. */
  readonly unavailableReason: string | undefined;
}

/** The Bash tool's runner and status for its `sandbox` option (default off). */
export function bashSandbox(
  backend: WorkspaceBackend,
  cwd: string,
  option: SandboxMode | BashSandboxOptions | undefined,
): { runner: WorkspaceBackend; status: BashSandboxStatus } {
  const options: BashSandboxOptions = typeof option === "object" ? option : { mode: option ?? "off" };
  checkSandboxMode(options.mode);
  const choice = chooseSandbox(options.mode, "Bash commands", { platform: options.platform, warn: options.onWarning });
  if (!choice.sandboxed) {
    return { runner: backend, status: { sandboxed: false, writableDirectories: [], network: true, unavailableReason: choice.reason } };
  }
  // Real paths: a bind mount of a symlinked folder would otherwise land somewhere else.
  const writableDirectories = (options.workingDirectories ?? [cwd]).map((directory) => realpathSync(directory));
  const network = options.network ?? false;
  const runner = new SandboxedWorkspaceBackend(backend, choice.platform, {
    base: "host",
    readOnly: [],
    writable: writableDirectories,
    network: { kind: network ? "host" : "none" },
    env: { ...(process.env as Record<string, string>) },
  });
  return { runner, status: { sandboxed: true, writableDirectories, network, unavailableReason: undefined } };
}
