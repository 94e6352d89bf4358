import { homedir } from "node:os";
import { join } from "node:path";
import type { ArchiveLimits } from "./archive/archive-limits.js";
import { ArchiveError } from "./archive/archive-error.js";
import { grantSecretLocations } from "./builtin/grant-secret-locations.js";
import { resolveCacheDir } from "./cache/cache-dir.js";
import { readLocalTool, type LocalToolSource } from "./cache/local-tool-source.js";
import { entryVersion, registryEntry, type LatestPolicy } from "./cache/registry-entry.js";
import { archiveForHost } from "./cache/platform-archive.js";
import { registryToolTree } from "./cache/registry-tool-tree.js";
import { ToolCache } from "./cache/tool-cache.js";
import type { ToolTree } from "./cache/tool-tree.js";
import { AgentToolsError } from "./errors.js";
import { RegistryClient, type RegistryClientOptions } from "./registry-client/registry-client.js";
import type { ToolRecord } from "./registry-client/tool-record.js";
import { PermissionEngine } from "./permission/permission-engine.js";
import { readPipHosts } from "./runtimes/python/pip-sources.js";
import { resolveOutputFileLimit } from "./runtimes/binary/binary-runtime.js";
import { PythonToolRuntime } from "./runtimes/python/python-runtime.js";
import { ToolInputInvalidError } from "./runtimes/runtime-errors.js";
import { inputSchemaOf } from "./registry-tool/registry-tool-record.js";
import { InputValidator } from "./toolkit/input-validator.js";
import { startToolRuntime, type RuntimeSettings } from "./runtimes/start-tool-runtime.js";
import type { ToolOutputListener, ToolRuntime } from "./runtimes/tool-runtime.js";
import type { CapabilityAsker } from "./sandbox/capabilities/capability-grants.js";
import type { ResourceLimits } from "./sandbox/resource-limits.js";
import type { SandboxMode } from "./sandbox/sandbox-preflight.js";
import type { SandboxPlatform } from "./sandbox/sandbox-platform.js";
import { ToolSandboxes } from "./sandbox/tool-sandboxes.js";
import { OpenAIToolSelector, type OpenAISearchOptions } from "./search/openai-tool-selector.js";
import { ToolSearch, type ToolSearchOptions } from "./search/tool-search.js";
import type { Skill, SkillSource } from "./skills/skill.js";
import { SkillRuntime, isSkillRecord } from "./skills/skill-runtime.js";
import { releaseAgeHours } from "./trust/release-age.js";
import type { DefinitionChange } from "./trust/definition-pins.js";
import { ToolTrust, type TrustOptions } from "./trust/tool-trust.js";

/** Also takes the LLM tool search's `openaiApiKey`, `openaiBaseUrl`, `model` (see `OpenAISearchOptions`). */
export interface AgentToolsOptions extends OpenAISearchOptions, TrustOptions {
  /** Registry base URL, e.g. `http://127.0.0.1:6000`. Needed for registry tools, not for local sources. */
  toolsDbUrl?: string;
  /** Archives, unpacked trees, versioned entries and venvs. Default `$AGENT_TOOLS_CACHE_DIR` or `~/.cache/agent-tools`. */
  cacheDir?: string;
  /** Python used for Python tools (resolved once to its real executable). Default `python3`. */
  pythonPath?: string;
  /**
   * Extra `pip install` arguments for requirements, e.g. `["--no-index", "--find-links", "/wheels"]`
   * or `["--index-url", mirror]`. The machine's pip configuration is never read: what pip needs is
   * said here. The index URLs and find-links named here (default pypi.org) are the only hosts an
   * install may reach (docs/sandbox.md#dependency-installation).
   */
  pipArgs?: string[];
  /** Extra environment for pip only, e.g. `{ PIP_INDEX_URL: mirror }`; index variables count as in pipArgs. */
  pipEnv?: Record<string, string>;
  /** `host:port` pairs a sandboxed install may reach besides its index settings (an index whose files live elsewhere). */
  pipHosts?: string[];
  /**
   * Let pip build packages from source (sdists, local folders, VCS URLs), which runs their build
   * code at install time, inside the install sandbox when tools are sandboxed. Default false: only
   * wheels are installed, and a package that would be built is refused, naming it.
   */
  allowSourceBuilds?: boolean;
  /** Per call; a tool that runs longer is killed (and restarted on next use). Default 60 s; 0 = no limit. */
  callTimeoutMs?: number;
  /** Importing and constructing a Python tool (at add and after a restart). Default 60 s; 0 = no limit. */
  loadTimeoutMs?: number;
  /** Creating a requirements venv. Default 10 min. */
  installTimeoutMs?: number;
  /** Per registry request. Default 30 s. */
  requestTimeoutMs?: number;
  /** Characters of a tool's stdout/stderr kept for error messages. Default 64 Ki. */
  outputLimit?: number;
  /** The largest output file a binary tool may answer with, in bytes; a larger one is a ToolOutputError. Default 16 MiB. */
  outputFileLimitBytes?: number;
  /** Receives everything tools print (their stdout never mixes with results). */
  onToolOutput?: ToolOutputListener;
  /** Bounds for unpacking archives (entry count, sizes, compression ratio). */
  archiveLimits?: Partial<ArchiveLimits>;
  /** Replaces the global fetch (proxies, tests). */
  fetch?: typeof fetch;
  /**
   * Run tools in the OS sandbox (docs/sandbox.md). `auto` (default): when the preflight shows it
   * works, otherwise warn once with the reason and the fix and run unsandboxed; `required`: refuse
   * to run a tool without it; `off`: never.
   */
  sandbox?: SandboxMode;
  /** Raises or lowers the sandbox's resource limits (CPU seconds, memory, processes, file size, open files). */
  sandboxLimits?: Partial<ResourceLimits>;
  /** The sandbox mechanism; default bubblewrap on Linux. Another OS backend plugs in here. */
  sandboxPlatform?: SandboxPlatform;
  /** Receives the one-time warning when `auto` runs unsandboxed. Default `console.warn`. */
  onSandboxWarning?: (message: string) => void;
  /**
   * Decides the capabilities tools declare (`tool_capabilities`) with rules such as
   * `Capability(weather:network:api.example.com)`. Default: an engine without rules, so every
   * capability asks `onCapabilityRequest`.
   */
  permissions?: PermissionEngine;
  /** Answers a capability ASK (the user's yes or no); without it, an asked capability is not granted. */
  onCapabilityRequest?: CapabilityAsker;
  /** What `{ "path": "workspace" }` in a filesystem capability means. Default: the process's cwd. */
  workingDirectories?: string[];
  /**
   * Stop a Python worker, or a binary tool's warm sandbox, after this long without calls; the next call
   * starts it again. Default 5 min; 0 = never.
   */
  workerIdleTimeoutMs?: number;
  /** `on-first-call` (default): a Python tool's worker starts when it is first called; `on-add`: at `add`, so load errors surface there. */
  workerStart?: "on-first-call" | "on-add";
  /** Bytes of a tool archive downloaded so far (e.g. for a progress bar). */
  onDownloadProgress?: RegistryClientOptions["onDownloadProgress"];
  /**
   * "Latest" (`add("id")`) resolves to the highest version published at least this many hours
   * ago and not yanked, so a version published minutes ago does not reach agents at once. An
   * exact `id@version` is not affected. Default: none (the registry's latest).
   */
  minReleaseAgeHours?: number;
}

/** What `add` accepts: `"id"`, `"id@version"`, or a local tool folder / `tool.zip`. */
export type ToolSource = string | LocalToolSource;

/** A tool as `AgentTools` holds it: what `getTool` and `list` return. */
export interface AddedTool {
  toolId: string;
  /** The registry version; undefined for local sources without one. */
  version: string | undefined;
  /** The full record given to the tool, with `add`'s parameters merged into `tool_parameters`. */
  record: ToolRecord;
  /** "skill" for a `tool_type: "skill"` entry: registered for the Skill viewer, nothing runs. */
  runtime: "python" | "binary" | "skill";
  source: "registry" | "local";
}

interface LoadedTool {
  info: AddedTool;
  runtime: ToolRuntime;
  /** What `execute`'s input must match, as a Toolkit and the MCP server present the tool (`inputSchemaOf`). */
  inputSchema: Record<string, unknown>;
  /** Identity of what runs: same tree, same record = nothing to restart on a repeated `add`. */
  identity: string;
  /** A definition the user has not approved yet: asked before the first call (docs/sdk.md, "Pinned definitions"). */
  unapproved?: DefinitionChange | undefined;
  /** The question about `unapproved` in flight, shared by concurrent first calls. */
  approval?: Promise<void> | undefined;
}

/** One validator for every instance: it compiles each schema object once, and holds none longer than its tool. */
const inputValidator = new InputValidator();

const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_INSTALL_TIMEOUT_MS = 600_000;
const DEFAULT_OUTPUT_LIMIT = 64 * 1024;
const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/**
 * Adds registry (or local) tools and runs them on this host: Python tools in a persistent worker
 * per tool, binary tools per the binary contract (docs/design/compatibility.md#binary-contract). Every
 * failure is a typed `AgentToolsError` naming
 * the tool, and the instance stays usable afterwards.
 */
export class AgentTools implements SkillSource {
  private readonly client: RegistryClient | undefined;
  private readonly cache: ToolCache;
  private readonly settings: RuntimeSettings;
  private readonly archiveLimits: Partial<ArchiveLimits> | undefined;
  private readonly tools = new Map<string, LoadedTool>();
  /** In-flight `add`s per id, so concurrent adds and auto-adds share one load. */
  private readonly loading = new Map<string, Promise<LoadedTool>>();
  private readonly toolSearch: ToolSearch;
  private readonly sandboxes: ToolSandboxes;
  private readonly workerStart: "on-first-call" | "on-add";
  private readonly trust: ToolTrust;
  private readonly latestPolicy: LatestPolicy;

  constructor(options: AgentToolsOptions = {}) {
    this.latestPolicy = { minReleaseAgeHours: releaseAgeHours(options.minReleaseAgeHours), now: Date.now };
    this.client =
      options.toolsDbUrl === undefined
        ? undefined
        : new RegistryClient(options.toolsDbUrl, {
            ...(options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs }),
            ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
            ...(options.onDownloadProgress === undefined ? {} : { onDownloadProgress: options.onDownloadProgress }),
          });
    this.cache = new ToolCache(resolveCacheDir(options.cacheDir));
    const permissions = options.permissions ?? new PermissionEngine();
    this.trust = new ToolTrust(options, { client: this.client, cacheDir: this.cache.root, engine: permissions });
    this.archiveLimits = options.archiveLimits;
    this.toolSearch = new ToolSearch(
      { loadedRecords: () => this.loadedRecords(), registry: this.client, executeToolById: (id, input) => this.executeToolById(id, input) },
      new OpenAIToolSelector(options),
    );
    this.sandboxes = new ToolSandboxes({
      mode: options.sandbox ?? "auto",
      limits: options.sandboxLimits,
      platform: options.sandboxPlatform,
      warn: options.onSandboxWarning,
      permissions,
      ask: options.onCapabilityRequest,
      workingDirectories: options.workingDirectories ?? [process.cwd()],
      stateRoot: join(this.cache.root, "state"),
      proxySocketsRoot: join(this.cache.root, "proxies"),
      sdkFolders: [
        { path: this.cache.root, what: "the SDK's cache (archives, trees, pins, state)" },
        { path: join(homedir(), ".agent-tools"), what: "the SDK's settings folder (permissions, trusted folders)" },
      ],
      secrets: grantSecretLocations(),
    });
    this.workerStart = options.workerStart ?? "on-first-call";
    this.settings = {
      cache: this.cache,
      pythonPath: options.pythonPath ?? "python3",
      install: {
        pipArgs: options.pipArgs ?? [],
        pipEnv: options.pipEnv ?? {},
        pipHosts: readPipHosts(options.pipHosts),
        allowSourceBuilds: options.allowSourceBuilds === true,
        timeoutMs: options.installTimeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS,
      },
      callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      loadTimeoutMs: options.loadTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      outputLimit: options.outputLimit ?? DEFAULT_OUTPUT_LIMIT,
      outputFileLimitBytes: resolveOutputFileLimit(options.outputFileLimitBytes),
      onOutput: options.onToolOutput,
      idleTimeoutMs: options.workerIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      launcherFor: (record, readOnly) => this.sandboxes.launcherFor(record, readOnly),
      installIsolation: (toolId) => this.sandboxes.installIsolation(toolId),
    };
  }

  /** The registry client this instance uses (undefined without `toolsDbUrl`). */
  get registry(): RegistryClient | undefined {
    return this.client;
  }

  /** The cache folder in use. */
  get cacheDir(): string {
    return this.cache.root;
  }

  /**
   * Downloads (or takes from the cache), verifies, unpacks and starts a tool, constructing it with
   * its record and `parameters` merged shallowly into `tool_parameters`. Adding an added tool again
   * with other parameters or another version restarts it with the new record (docs/design/compatibility.md#add-again); the same again
   * is a no-op (a local folder, which may have been edited, always restarts). If the new one fails
   * to start, the previous one keeps running.
   */
  async add(source: ToolSource, parameters: Record<string, unknown> = {}): Promise<AddedTool> {
    if (parameters === null || typeof parameters !== "object" || Array.isArray(parameters)) {
      throw new AgentToolsError(
        "INVALID_PARAMETERS",
        `add() parameters must be a plain object, got ${Array.isArray(parameters) ? "an array" : typeof parameters}.`,
      );
    }
    const key = typeof source === "string" ? parseToolRef(source).toolId : `local:${source.path}`;
    const previous = this.loading.get(key) ?? Promise.resolve(undefined);
    const load = previous.catch(() => undefined).then(() => this.load(source, parameters));
    this.loading.set(key, load);
    try {
      return (await load).info;
    } finally {
      if (this.loading.get(key) === load) this.loading.delete(key);
    }
  }

  /** Runs a tool (Python or binary), adding it with no parameters first if needed (docs/design/compatibility.md#execute-without-add). */
  async executeToolById(toolId: string, input: unknown = {}): Promise<unknown> {
    const ready = this.tools.get(toolId); // the hot path: one lookup, straight to the runtime
    if (ready !== undefined && ready.unapproved === undefined && !this.loading.has(toolId)) return this.execute(ready, input);
    return this.execute(await this.approved(await this.loaded(toolId)), input);
  }

  /** Checks the input against the tool's schema before anything starts (ToolInputInvalidError), as a Toolkit and MCP do, then runs it. */
  private execute(tool: LoadedTool, input: unknown): Promise<unknown> {
    const problems = tool.runtime.kind === "skill" ? undefined : inputValidator.schemaProblems(tool.inputSchema, input ?? {});
    if (problems !== undefined) return Promise.reject(new ToolInputInvalidError(tool.info.toolId, problems));
    return tool.runtime.execute(input);
  }

  /**
   * Runs a management command: a Python tool's `execute_command(name, data)` and its return value
   * (docs/design/compatibility.md#management-commands); for binaries the fixed `{"success": false, "message": …}`.
   */
  async executeCommand(toolId: string, command: string, data: unknown = {}): Promise<unknown> {
    return (await this.approved(await this.loaded(toolId))).runtime.executeCommand(command, data);
  }

  /**
   * An added tool's record and runtime kind (undefined if not added). `executeToolById` stays the
   * one way to run it, so permission wrappers call that with `toolId`.
   */
  getTool(toolId: string): AddedTool | undefined {
    return this.tools.get(toolId)?.info;
  }

  list(): AddedTool[] {
    return [...this.tools.values()].map((tool) => tool.info);
  }

  /** The skills added so far (entries with `tool_type: "skill"`): pass this instance to `Toolkit({ skills })`. */
  skills(): Skill[] {
    return [...this.tools.values()].flatMap(({ runtime }) => (runtime instanceof SkillRuntime ? [runtime.skill] : []));
  }

  /** The skill an added `tool_type: "skill"` entry registered; undefined for other tools and ids never added. */
  getSkill(toolId: string): Skill | undefined {
    const runtime = this.tools.get(toolId)?.runtime;
    return runtime instanceof SkillRuntime ? runtime.skill : undefined;
  }

  /** Stops a tool's worker and forgets it; false if it was not added. */
  async remove(toolId: string): Promise<boolean> {
    const tool = this.tools.get(toolId);
    if (tool === undefined) return false;
    this.tools.delete(toolId);
    await tool.runtime.close();
    await this.sandboxes.remove(toolId);
    return true;
  }

  /**
   * Starts the workers of several Python tools at once (default: every added one), so their first
   * calls skip the start-up (a changed definition is asked about first, as at a call, and
   * requirements are installed); rejects with the first load error once all have settled.
   */
  async startWorkers(toolIds: string[] = [...this.tools.keys()]): Promise<void> {
    const tools = await Promise.all(toolIds.map((toolId) => this.loaded(toolId)));
    const results = await Promise.allSettled(
      tools.map(async (tool) => {
        const { runtime } = await this.approved(tool);
        if (runtime instanceof PythonToolRuntime) await runtime.start();
      }),
    );
    const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
    if (failed !== undefined) throw failed.reason;
  }

  /** Stops every worker and removes temporary files. The instance can add tools again afterwards. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.loading.values()]);
    const tools = [...this.tools.values()];
    this.tools.clear();
    await Promise.all(tools.map((tool) => tool.runtime.close()));
    await this.sandboxes.close();
  }

  /**
   * Asks the LLM which tool fits `prompt` (the Python SDK's `search_tool`) and returns its id; nothing
   * runs. Candidates: the added tools, or `{ from: "registry", limit }` for the registry's best matches.
   */
  searchTool(prompt: string, options?: ToolSearchOptions): Promise<string> {
    return this.toolSearch.searchTool(prompt, options);
  }

  /** Lets the LLM pick a tool and write its arguments from `prompt` and `input`, then runs it (adding it if needed). */
  searchAndExecuteTool(prompt: string, input: Record<string, unknown> = {}, options?: ToolSearchOptions): Promise<unknown> {
    return this.toolSearch.searchAndExecuteTool(prompt, input, options);
  }

  /** The records of added tools, for tool search over what this agent has loaded. */
  protected loadedRecords(): ToolRecord[] {
    return [...this.tools.values()].map((tool) => tool.info.record);
  }

  /** The loaded tool for `"id"` or `"id@version"`, adding it (without parameters) when needed. */
  private async loaded(ref: string): Promise<LoadedTool> {
    const { toolId, version } = parseToolRef(ref);
    const matches = (tool: LoadedTool | undefined): tool is LoadedTool =>
      tool !== undefined && (version === undefined || tool.info.version === version);
    const ready = this.tools.get(toolId);
    if (matches(ready) && !this.loading.has(toolId)) return ready;
    await this.loading.get(toolId)?.catch(() => undefined);
    const settled = this.tools.get(toolId);
    if (matches(settled)) return settled;
    await this.add(ref);
    const added = this.tools.get(toolId);
    if (added === undefined)
      throw new AgentToolsError("TOOL_NOT_ADDED", `Tool "${toolId}" was removed while it was being added.`, { toolId });
    return added;
  }

  /** The tool once its definition is approved: a changed one asks first (once, however many calls wait). */
  private async approved(tool: LoadedTool): Promise<LoadedTool> {
    const change = tool.unapproved;
    if (change === undefined) return tool;
    tool.approval ??= this.trust.approveDefinition(change).then(
      () => {
        if (tool.unapproved === change) tool.unapproved = undefined;
      },
      (error: unknown) => {
        tool.approval = undefined; // refused: the next call asks again
        throw error;
      },
    );
    await tool.approval;
    return tool;
  }

  private async load(source: ToolSource, parameters: Record<string, unknown>): Promise<LoadedTool> {
    const { record: base, tree, origin } = await this.fetch(source);
    const record: ToolRecord = { ...base, tool_parameters: { ...(base.tool_parameters ?? {}), ...parameters } };
    const toolId = record.tool_id;
    const identity = JSON.stringify([tree.toolDir, tree.codeDir, record]);
    const current = this.tools.get(toolId);
    // A local folder runs in place and may have been edited since, so adding it again always restarts.
    const unchanged = tree.archiveSha256 !== undefined && current?.identity === identity;
    if (current !== undefined && unchanged) return current;
    let unapproved = origin === "registry" ? await this.trust.definitionChange(base, entryVersion(base)) : undefined;
    const runtime = isSkillRecord(record) ? SkillRuntime.load(tree.codeDir) : await startToolRuntime(record, tree, this.settings);
    if (this.workerStart === "on-add" && runtime instanceof PythonToolRuntime) {
      // Starting installs requirements and runs the tool's code: a changed definition is asked about first.
      if (unapproved !== undefined) {
        await this.trust.approveDefinition(unapproved);
        unapproved = undefined;
      }
      await runtime.start().catch(async (error: unknown) => {
        await runtime.close();
        throw error;
      });
    }
    const loaded: LoadedTool = {
      unapproved,
      inputSchema: inputSchemaOf(record),
      info: {
        toolId,
        version: typeof record.version === "string" ? record.version : metadataVersion(record),
        record,
        runtime: runtime.kind,
        source: origin,
      },
      runtime,
      identity,
    };
    this.tools.set(toolId, loaded);
    await current?.runtime.close();
    return loaded;
  }

  private async fetch(source: ToolSource): Promise<{ record: ToolRecord; tree: ToolTree; origin: "registry" | "local" }> {
    if (typeof source !== "string") {
      const local = await withToolId(source.toolId ?? source.path, () => readLocalTool(source, this.cache, this.archiveLimits));
      return { ...local, origin: "local" };
    }
    const { toolId, version } = parseToolRef(source);
    const client = this.client;
    if (client === undefined) {
      throw new AgentToolsError(
        "REGISTRY_NOT_CONFIGURED",
        `Cannot add "${source}" from a registry: pass toolsDbUrl to new AgentTools(), or add a local tool with { path }.`,
        { toolId },
      );
    }
    const entry = await registryEntry(client, this.cache, toolId, version, this.latestPolicy);
    await this.trust.admit(entry, version ?? entryVersion(entry), version !== undefined);
    // A binary tool built for several platforms: the archive of this host's.
    const tree = await withToolId(toolId, () => registryToolTree(client, this.cache, archiveForHost(entry), this.archiveLimits));
    return { record: entry, tree, origin: "registry" };
  }
}

/** `"id@1.2.0"` → id and version (tool ids cannot contain "@"). */
export function parseToolRef(ref: string): { toolId: string; version: string | undefined } {
  const at = ref.lastIndexOf("@");
  if (at <= 0) return { toolId: ref, version: undefined };
  return { toolId: ref.slice(0, at), version: ref.slice(at + 1) };
}

function metadataVersion(record: ToolRecord): string | undefined {
  const version = record.tool_metadata?.version;
  return typeof version === "string" ? version : undefined;
}

/** Archive errors come from shared code that does not know the tool; say which tool they are about. */
async function withToolId<T>(toolId: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ArchiveError && error.toolId === undefined) {
      throw new ArchiveError(error.code, `Tool "${toolId}": ${error.message}`, { toolId, cause: error });
    }
    throw error;
  }
}
