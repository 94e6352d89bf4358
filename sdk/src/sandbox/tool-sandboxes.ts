import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { PermissionEngine } from "../permission/permission-engine.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { ToolLoadError } from "../tool-load-error.js";
import { directLauncher, type ToolLauncher } from "./tool-launcher.js";
import { decideCapabilities, type CapabilityAsker } from "./capabilities/capability-grants.js";
import type { GrantedPathRules, SdkFolder, SecretLocations } from "./capabilities/granted-paths.js";
import { readToolCapabilities } from "./capabilities/tool-capabilities.js";
import { FilteringProxy } from "./network-proxy.js";
import { ensureProxySocketsRoot } from "./proxy-socket-folder.js";
import { resolveResourceLimits, type ResourceLimits } from "./resource-limits.js";
import { SandboxUnavailableError } from "./sandbox-errors.js";
import type { SandboxPlatform } from "./sandbox-platform.js";
import { checkSandboxMode, chooseSandbox, type SandboxMode } from "./sandbox-preflight.js";
import { ToolSandbox } from "./tool-sandbox.js";

export interface ToolSandboxesOptions {
  mode: SandboxMode;
  limits: Partial<ResourceLimits> | undefined;
  platform: SandboxPlatform | undefined;
  warn: ((message: string) => void) | undefined;
  permissions: PermissionEngine;
  ask: CapabilityAsker | undefined;
  workingDirectories: string[];
  /** Parent of the per-tool state folders. */
  stateRoot: string;
  /** Parent of the proxies' private socket folders, hidden in every sandbox (`proxy-socket-folder.ts`). */
  proxySocketsRoot: string;
  /** Other folders of the SDK's own that no filesystem grant may show (its cache, its settings). */
  sdkFolders: readonly SdkFolder[];
  /** The secret locations a filesystem grant may not be, and masks inside (docs/sandbox.md#capability-paths). */
  secrets: SecretLocations | undefined;
}

/** How a tool's dependencies are installed (docs/sandbox.md#dependency-installation). */
export interface InstallIsolation {
  /** The platform the install runs under; undefined when the tool's own processes run unsandboxed. */
  platform: SandboxPlatform | undefined;
  limits: ResourceLimits;
  /** Where the install's own proxy puts its socket (hidden in every sandbox but for that socket). */
  proxySocketsRoot: string;
}

/**
 * The sandboxes of one `AgentTools`: per tool, the launcher its runtime starts processes with,
 * decided once on first use (preflight, capability grants, proxy), plus its state folder.
 */
export class ToolSandboxes {
  private readonly limits: ResourceLimits;
  private readonly grantRules: GrantedPathRules;
  /** The filtering proxy of each tool granted network hosts. */
  private readonly proxies = new Map<string, FilteringProxy>();

  constructor(private readonly options: ToolSandboxesOptions) {
    this.limits = resolveResourceLimits(options.limits);
    this.grantRules = {
      sdkFolders: [
        { path: options.proxySocketsRoot, what: "the folder of the filtering proxies' sockets" },
        { path: options.stateRoot, what: "the folder of the tools' private state" },
        ...options.sdkFolders,
      ],
      secrets: options.secrets,
    };
    checkSandboxMode(options.mode);
    // `required` refuses at once, before any tool is added, rather than at the first call.
    if (options.mode === "required") chooseSandbox("required", "Registry tools", { platform: options.platform });
  }

  /** A memoised launcher for the tool: decided at the first call, again after a failed decision. */
  launcherFor(record: ToolRecord, readOnly: string[]): () => Promise<ToolLauncher> {
    let pending: Promise<ToolLauncher> | undefined;
    return () => {
      pending ??= this.create(record, readOnly).catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
      return pending;
    };
  }

  /** Installs run in a sandbox of their own exactly when the tool's processes are sandboxed. */
  installIsolation(toolId: string): InstallIsolation {
    const choice = this.choose(toolId);
    return {
      platform: choice.sandboxed ? choice.platform : undefined,
      limits: this.limits,
      proxySocketsRoot: this.options.proxySocketsRoot,
    };
  }

  /** Forgets a removed tool: stops its proxy and deletes its state folder. */
  async remove(toolId: string): Promise<void> {
    const proxy = this.proxies.get(toolId);
    this.proxies.delete(toolId);
    await proxy?.close();
    await rm(this.stateDir(toolId), { recursive: true, force: true });
  }

  /** Stops every proxy; state folders stay for the next run. */
  async close(): Promise<void> {
    const proxies = [...this.proxies.values()];
    this.proxies.clear();
    await Promise.all(proxies.map((proxy) => proxy.close()));
  }

  stateDir(toolId: string): string {
    return join(this.options.stateRoot, toolId.replace(/[^A-Za-z0-9._-]/g, "_"));
  }

  private async create(record: ToolRecord, readOnly: string[]): Promise<ToolLauncher> {
    const toolId = record.tool_id;
    const stateDir = this.stateDir(toolId);
    await mkdir(stateDir, { recursive: true });
    const choice = this.choose(toolId);
    if (!choice.sandboxed) return directLauncher(stateDir);
    let declared: ReturnType<typeof readToolCapabilities>;
    try {
      declared = readToolCapabilities(record.tool_capabilities);
    } catch (error) {
      throw new ToolLoadError(toolId, `its tool_capabilities are invalid: ${(error as Error).message}`, { cause: error });
    }
    const decided = await decideCapabilities(toolId, declared, this.options.permissions, this.options.ask);
    await this.proxies.get(toolId)?.close();
    this.proxies.delete(toolId);
    const socketsRoot = this.options.proxySocketsRoot;
    await ensureProxySocketsRoot(socketsRoot);
    const proxy = decided.granted.network.length > 0 ? await FilteringProxy.start(decided.granted.network, { socketsRoot }) : undefined;
    if (proxy !== undefined) this.proxies.set(toolId, proxy);
    const launcher = new ToolSandbox({
      toolId,
      platform: choice.platform,
      readOnly,
      stateDir,
      granted: decided.granted,
      declared: decided.declared,
      workingDirectories: this.options.workingDirectories,
      proxy,
      proxySocketsRoot: socketsRoot,
      grantRules: this.grantRules,
      limits: this.limits,
    });
    return launcher;
  }

  private choose(toolId: string): ReturnType<typeof chooseSandbox> {
    try {
      return chooseSandbox(this.options.mode, "Registry tools", { platform: this.options.platform, warn: this.options.warn });
    } catch (error) {
      if (error instanceof SandboxUnavailableError) throw new SandboxUnavailableError("Registry tools", error.reason, error.fix, toolId);
      throw error;
    }
  }
}
