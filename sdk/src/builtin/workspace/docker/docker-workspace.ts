import { realpathSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { arch } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { writeTar } from "../../../archive/tar-writer.js";
import { projectFolder } from "../project-folder.js";
import { WorkspaceBase } from "../workspace.js";
import type { WorkspaceBackend } from "../workspace-backend.js";
import { WorkspaceError } from "../workspace-error.js";
import { ContainerProcesses } from "./container-processes.js";
import { DockerEngine, type DockerEngineAddress } from "./docker-engine.js";
import { DockerWorkspaceBackend } from "./docker-workspace-backend.js";

export interface DockerWorkspaceOptions {
  /**
   * The image to run, already on the engine (pull or build it first). It needs `sh`, `cat`, `stat`,
   * `find`, `mkdir`, `kill` and `sleep` (any Debian, Ubuntu, Alpine or language image has them), and
   * `bash` for the Bash tool.
   */
  image: string;
  /** The host folder the agent works in, mounted at the same path in the container. Default the process's cwd. */
  projectDirectory?: string;
  /**
   * Host folders mounted read-only at their host paths, so the file tools and commands read them in
   * the container as on the host: the skills' folders (or the registry cache they live in) above
   * all, whose resources a loaded skill tells the agent to read (docs/workspaces.md#skills-in-a-docker-workspace).
   */
  readOnlyDirectories?: string[];
  /** Let the container reach a network (the engine's default one). Default false: no network at all. */
  network?: boolean;
  /** Who commands and file operations run as (`"1000:1000"`, `"node"`). Default the image's user. */
  user?: string;
  /** Added to the container's environment (the agent's own is never passed). */
  env?: Record<string, string>;
  /** The engine: `{ socketPath }` or `{ url: "http://host:2375" }`. Default `DOCKER_HOST`, else `/var/run/docker.sock`. */
  engine?: DockerEngineAddress;
}

/** The workspace's folder in the container: pid files, logs of background commands, staged writes, ripgrep when the image has none. */
const PRIVATE_DIR = "/tmp/.agent-tools";
/** Keeps the container alive until the workspace removes it; any `sleep` will do. */
const KEEP_ALIVE = "while :; do sleep 3600; done";
const SETUP_SCRIPT = 'umask 077; mkdir -p -- "$1" || exit 1; id -u; id -g; command -v rg || echo -';
const LABEL = "agent-tools.workspace";

/** The engine's names for this process's CPU, as `GET /info` reports it (Docker `x86_64`, Podman `amd64`). */
const ENGINE_ARCHITECTURES: Record<string, readonly string[]> = { x64: ["x86_64", "amd64"], arm64: ["aarch64", "arm64"] };

/**
 * A container per workspace, over the Docker Engine API (docs/workspaces.md#docker): the project
 * folder mounted read-write at its host path, no network unless `network`, commands and file
 * operations run inside through the API, and the container removed by `close`. The host sees the
 * container change only the project folder, so the Bash tool treats the container as its sandbox.
 * Tested against Podman's Docker-compatible API (docs/workspaces.md says exactly what was tested).
 *
 * @example
 * const workspace = new DockerWorkspace({ image: "debian:bookworm", projectDirectory: "/work/app" });
 * await workspace.initialize();
 * const backend = workspace.getBackend();
 * const toolkit = new Toolkit({ tools: createBuiltinTools(BUILTIN_TOOL_NAMES, backend.cwd, { backend }) });
 * // ...
 * await workspace.close();   // the container is removed
 */
export class DockerWorkspace extends WorkspaceBase {
  private readonly engine: DockerEngine;
  private containerId: string | undefined;
  private stopped = false;

  constructor(private readonly options: DockerWorkspaceOptions) {
    super();
    if (typeof options?.image !== "string" || options.image.trim() === "") {
      throw new WorkspaceError(
        "WORKSPACE_OPTIONS_INVALID",
        'DockerWorkspace needs an image: new DockerWorkspace({ image: "debian:bookworm" }).',
      );
    }
    this.engine = new DockerEngine(options.engine);
  }

  /** The container's id once started; undefined before `initialize` and after `close`. */
  get container(): string | undefined {
    return this.stopped ? undefined : this.containerId;
  }

  protected get label(): string {
    return `Docker workspace on ${this.options.image}`;
  }

  protected async start(): Promise<WorkspaceBackend> {
    const projectDirectory = projectFolder(this.options.projectDirectory, this.label);
    await this.engine.call("GET", "/_ping");
    const network = this.options.network ?? false;
    const readOnly = (this.options.readOnlyDirectories ?? []).map((folder) => readOnlyFolder(folder, this.label));
    const id = await this.createContainer(projectDirectory, readOnly, network);
    this.containerId = id;
    try {
      await this.engine.call("POST", `/containers/${id}/start`);
      const processes = new ContainerProcesses(this.engine, id, PRIVATE_DIR);
      const setup = await processes.run(["sh", "-c", SETUP_SCRIPT, "sh", PRIVATE_DIR], { timeoutMs: 60_000 });
      const [uid, gid, ripgrep] = setup.stdout.toString("utf8").trim().split("\n");
      if (setup.exitCode !== 0 || ripgrep === undefined) {
        throw new WorkspaceError(
          "WORKSPACE_OPERATION_FAILED",
          `The ${this.label} cannot prepare its folder ${PRIVATE_DIR} in container ${id.slice(0, 12)}: ` +
            `${setup.stderr.toString("utf8").trim() || `exit status ${setup.exitCode}`}. ` +
            `The image needs sh, mkdir and id, and a writable /tmp.`,
        );
      }
      const ids = { uid: Number(uid), gid: Number(gid) };
      return new DockerWorkspaceBackend({
        engine: this.engine,
        id,
        processes,
        projectDirectory,
        privateDir: PRIVATE_DIR,
        ...ids,
        ripgrep: ripgrep !== "-" ? ripgrep : await this.copyRipgrep(id, ids),
        confinement: {
          description: `Docker container ${id.slice(0, 12)} (${this.options.image})`,
          writableDirectories: [projectDirectory],
          network,
        },
        closed: () => this.stopped,
      });
    } catch (error) {
      await this.removeContainer(id);
      throw error;
    }
  }

  protected override async stop(): Promise<void> {
    this.stopped = true;
    if (this.containerId !== undefined) await this.removeContainer(this.containerId);
  }

  private async createContainer(projectDirectory: string, readOnly: readonly string[], network: boolean): Promise<string> {
    const { image, user, env } = this.options;
    try {
      const created = await this.engine.json<{ Id: string }>("POST", "/containers/create", {
        json: {
          Image: image,
          Entrypoint: ["/bin/sh", "-c"],
          Cmd: [KEEP_ALIVE],
          WorkingDir: projectDirectory,
          ...(user === undefined ? {} : { User: user }),
          Env: Object.entries(env ?? {}).map(([name, value]) => `${name}=${value}`),
          Labels: { [LABEL]: projectDirectory },
          HostConfig: {
            Binds: [`${projectDirectory}:${projectDirectory}`, ...readOnly.map((folder) => `${folder}:${folder}:ro`)],
            ...(network ? {} : { NetworkMode: "none" }),
            // A setuid program in the image or the project cannot raise the user's rights (sudo, su, a planted copy).
            SecurityOpt: ["no-new-privileges"],
          },
        },
      });
      return created.Id;
    } catch (error) {
      if (error instanceof WorkspaceError && error.status === 404) {
        throw new WorkspaceError(
          "DOCKER_ENGINE_ERROR",
          `${error.message}. The ${this.label} runs an image already on the engine: pull it (docker pull ${image}) or build it first.`,
          { status: 404, cause: error },
        );
      }
      throw error;
    }
  }

  /** The SDK's ripgrep (a static binary) copied in, when the engine runs this machine's architecture; undefined otherwise. */
  private async copyRipgrep(id: string, owner: { uid: number; gid: number }): Promise<string | undefined> {
    const info = await this.engine.json<{ Architecture?: string; OSType?: string }>("GET", "/info");
    const runsHere =
      info.OSType === "linux" && process.platform === "linux" && (ENGINE_ARCHITECTURES[arch()] ?? []).includes(info.Architecture ?? "");
    if (!runsHere) return undefined;
    const tar = writeTar([{ path: "rg", data: await readFile(rgPath), mode: 0o755, ...owner }]);
    await this.engine.call("PUT", `/containers/${id}/archive`, {
      query: { path: PRIVATE_DIR, copyUIDGID: true },
      bytes: tar,
      contentType: "application/x-tar",
    });
    return `${PRIVATE_DIR}/rg`;
  }

  private async removeContainer(id: string): Promise<void> {
    await this.engine.call("DELETE", `/containers/${id}`, { query: { force: true, v: true } }, [200, 204, 404]);
  }
}

/** A read-only folder's real path (a bind mount of a link would land elsewhere); a clear error when it is no folder. */
function readOnlyFolder(path: string, what: string): string {
  const absolute = resolve(path);
  if (!isAbsolute(path) || !statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) {
    throw new WorkspaceError(
      "WORKSPACE_OPTIONS_INVALID",
      `The ${what}'s readOnlyDirectories entry ${JSON.stringify(path)} is not an absolute path ` +
        `to a folder: pass existing host folders, e.g. a skill's folder or agentTools.cacheDir.`,
    );
  }
  return realpathSync(absolute);
}
