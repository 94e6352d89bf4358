import type { LaunchOptions, ToolLauncher } from "./tool-launcher.js";
import { grantedPath, type GrantedPathRules } from "./capabilities/granted-paths.js";
import type { FilesystemCapability } from "./capabilities/tool-capabilities.js";
import { denialOf, type Denial, type ToolFailure } from "./sandbox-denial.js";
import type { SandboxPlatform } from "./sandbox-platform.js";
import type { HiddenPath, SandboxedCommand, SandboxNetwork, SandboxProfile } from "./sandbox-profile.js";
import type { ResourceLimits } from "./resource-limits.js";
import { StateQuota } from "./state-quota.js";

/** Passed through from the agent's environment: locale and time zone, never anything secret. */
export const PASSED_ENV = ["LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "TERM"];
export const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";
const RECENT_LAUNCHES = 8;
/** Where the proxy bridge listens inside the sandbox's own network namespace (see agent_tools_worker.py). */
export const SANDBOX_PROXY_PORT = 3128;

/** The variables that send a sandboxed process's HTTP clients to the proxy bridge, and the bridge to the proxy. */
export function proxyEnvironment(proxy: { socketPath: string; token: string }): Record<string, string> {
  const bridge = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;
  return {
    AGENT_TOOLS_PROXY_SOCKET: proxy.socketPath,
    AGENT_TOOLS_PROXY_TOKEN: proxy.token,
    HTTP_PROXY: bridge,
    HTTPS_PROXY: bridge,
    http_proxy: bridge,
    https_proxy: bridge,
    ALL_PROXY: bridge,
  };
}

export interface ToolSandboxOptions {
  toolId: string;
  platform: SandboxPlatform;
  /** The tool's folders and runtime (code, interpreter, venv, worker script): read-only. */
  readOnly: string[];
  stateDir: string;
  /** The capabilities granted to this tool. */
  granted: { env: string[]; filesystem: FilesystemCapability[]; network: string[] };
  /** Every capability id the tool declared, granted or not (for error messages). */
  declared: ReadonlySet<string>;
  /** What `workspace` means in a filesystem capability. */
  workingDirectories: string[];
  /** The tool's own filtering proxy when it was granted hosts: its socket and the token it takes. */
  proxy: { socketPath: string; token: string } | undefined;
  /** Where every proxy's socket folder lives: hidden in the sandbox, which sees its own socket alone. */
  proxySocketsRoot: string;
  /** How filesystem grants are resolved and checked (the SDK's folders, the secret locations). */
  grantRules: GrantedPathRules;
  limits: ResourceLimits;
}

/**
 * One tool's sandbox: the default profile (system read-only, its own folders read-only, a private
 * writable state folder, private /tmp, no home, no network, a scrubbed environment, limits) plus
 * what was granted. Implements the launcher every runtime uses.
 */
export class ToolSandbox implements ToolLauncher {
  readonly sandboxed = true;
  readonly stateDir: string;
  private readonly profile: SandboxProfile;
  private readonly agentEnvNames = new Set(Object.keys(process.env));
  /** The last launches, newest first: a failure is explained by the cgroup of the process that ended. */
  private recent: SandboxedCommand[] = [];
  private readonly quota: StateQuota;

  constructor(private readonly options: ToolSandboxOptions) {
    this.stateDir = options.stateDir;
    this.quota = new StateQuota(options.toolId, options.stateDir, options.limits.stateBytes);
    const readOnly = [...options.readOnly];
    const writable = [options.stateDir];
    const hidden: HiddenPath[] = [{ path: options.proxySocketsRoot, kind: "directory" }];
    for (const grant of options.granted.filesystem) {
      for (const path of grant.path === "workspace" ? options.workingDirectories : [grant.path]) {
        const granted = grantedPath(options.toolId, path, grant.access, options.grantRules);
        (grant.access === "write" ? writable : readOnly).push(granted.path);
        hidden.push(...granted.hidden);
      }
    }
    const network: SandboxNetwork =
      options.proxy === undefined ? { kind: "none" } : { kind: "proxy", proxySocket: options.proxy.socketPath };
    this.profile = {
      base: "system",
      readOnly,
      writable,
      hidden,
      network,
      env: this.environment(),
      cwd: options.stateDir,
      limits: options.limits,
    };
  }

  launch(argv: string[], options: LaunchOptions): SandboxedCommand {
    const profile: SandboxProfile = {
      ...this.profile,
      cwd: options.cwd,
      env: { ...this.profile.env, ...options.env },
      writable: [...this.profile.writable, ...(options.writable ?? [])],
      passFds: options.passFds,
    };
    const command = this.options.platform.wrap(profile, argv);
    this.recent = [command, ...this.recent.slice(0, RECENT_LAUNCHES - 1)];
    return command;
  }

  admitCall(): Promise<void> {
    return this.quota.admit();
  }

  explain(failure: ToolFailure): Denial | undefined {
    // The memory total is enforced by the kernel killing a process: only the cgroup can tell.
    if (failure.signal === "SIGKILL" && this.recent.some((command) => command.outOfMemory())) {
      return {
        capability: "limits.totalMemoryBytes",
        fix: "Raise sandboxLimits.totalMemoryBytes in new AgentTools({ sandboxLimits }) if the tool really needs more.",
      };
    }
    return denialOf(failure, {
      toolId: this.options.toolId,
      profile: this.profile,
      agentEnvNames: this.agentEnvNames,
      declared: this.options.declared,
    });
  }

  private environment(): Record<string, string> {
    const env: Record<string, string> = {
      PATH: SANDBOX_PATH,
      HOME: this.stateDir,
      TMPDIR: "/tmp",
      AGENT_TOOLS_STATE_DIR: this.stateDir,
      AGENT_TOOLS_SANDBOX: "1",
    };
    for (const name of [...PASSED_ENV, ...this.options.granted.env]) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
    if (this.options.proxy !== undefined) Object.assign(env, proxyEnvironment(this.options.proxy));
    return env;
  }
}
