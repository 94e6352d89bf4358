import { realpathSync } from "node:fs";
import type { SandboxPlatform } from "../../sandbox/sandbox-platform.js";
import { checkSandboxMode, chooseSandbox, type SandboxMode } from "../../sandbox/sandbox-preflight.js";
import type { DangerousPathLists } from "../paths/dangerous-paths.js";
import { SandboxedWorkspaceBackend } from "../workspace/sandboxed-workspace-backend.js";
import type { WorkspaceBackend } from "../workspace/workspace-backend.js";
import { checkGrantedNames, sandboxEnvironment } from "./bash-environment.js";
import { hiddenSecrets } from "./hidden-secrets.js";
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
  /** True when commands run in the sandbox. */
  readonly sandboxed: boolean;
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
  const warn = options.onWarning ?? console.warn;
  const choice = chooseSandbox(options.mode, "Bash commands", { platform: options.platform, warn });
  if (!choice.sandboxed) {
    const status = { sandboxed: false, writableDirectories: [], network: true, env: [], unavailableReason: choice.reason };
    return { status, runner: () => backend };
  }
  // Real paths: a bind mount of a symlinked folder would otherwise land somewhere else.
  const writableDirectories = (options.workingDirectories ?? [cwd]).map((directory) => realpathSync(directory));
  const walked = [...new Set([realpathSync(cwd), ...writableDirectories])];
  const network = options.network ?? false;
  const granted = [...(options.env ?? [])];
  const warnedLimits = new Set<string>();
  const onLimit = (directory: string, limit: string) => {
    if (warnedLimits.has(directory)) return;
    warnedLimits.add(directory);
    warn(
      `agent-tools: the Bash sandbox hides the secret files of ${directory} only down to where its search stopped (${limit}); deeper ones stay readable to commands (see docs/sandbox.md#secrets-hidden).`,
    );
  };
  const runner = (launch: BashLaunch): WorkspaceBackend => {
    if (launch.escape === "unsandboxed") return backend;
    return new SandboxedWorkspaceBackend(backend, choice.platform, {
      base: "host",
      readOnly: [],
      writable: writableDirectories,
      network: { kind: network || launch.escape === "network" ? "host" : "none" },
      hidden: hiddenSecrets({ lists, workingDirectories: walked, revealed: launch.revealed, onLimit }),
      env: sandboxEnvironment(process.env, granted),
    });
  };
  return { status: { sandboxed: true, writableDirectories, network, env: granted, unavailableReason: undefined }, runner };
}
