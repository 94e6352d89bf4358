import { randomUUID } from "node:crypto";
import { relative } from "node:path";
import picomatch from "picomatch";
import { writeTar } from "../../../archive/tar-writer.js";
import type {
  BackendConfinement,
  BackgroundProcess,
  ExecOptions,
  ExecResult,
  FileStat,
  GlobOptions,
  WorkspaceBackend,
} from "../workspace-backend.js";
import { WorkspaceError } from "../workspace-error.js";
import type { ContainerProcesses, ContainerRun } from "./container-processes.js";
import type { DockerEngine } from "./docker-engine.js";

/** File operations may take long on a slow disk, but never hang a tool forever (a `cat` of a fifo would). */
const FILE_TIMEOUT_MS = 120_000;
/** What `stat` prints: size, mtime in seconds, and the kind (`regular file`, `regular empty file`, `directory`, …). */
const STAT_SCRIPT = '[ -e "$1" ] || exit 44; stat -L -c "%s %Y %F" -- "$1"';
const MISSING = 44;
/**
 * Moves a staged upload onto the target through the container user's own rights: `cat >` keeps the target's
 * mode and owner, and follows links, as a local write does.
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: ${2%/*} is the shell's parameter expansion (the target's folder), not a template.
const PLACE_SCRIPT = 'dir=${2%/*}; [ -z "$dir" ] || mkdir -p -- "$dir" && cat -- "$1" > "$2"; status=$?; rm -f -- "$1"; exit $status';

/** What the backend knows of its container, decided when the workspace started. */
export interface DockerContainer {
  engine: DockerEngine;
  id: string;
  processes: ContainerProcesses;
  /** The project folder: the same path on the host and in the container. */
  projectDirectory: string;
  /** The workspace's private folder in the container (pid files, logs, staged writes). */
  privateDir: string;
  /** The numeric ids commands run as, given to staged writes. */
  uid: number;
  gid: number;
  /** The ripgrep the container runs: its own, or the SDK's copied in. */
  ripgrep: string | undefined;
  confinement: BackendConfinement;
  /** True once the workspace is closed. */
  closed: () => boolean;
}

/**
 * The tools' view of a workspace container (docs/workspaces.md#docker): commands through the
 * engine's exec API, files through exec (`cat`, `stat`, `find`) as the container's user, so the
 * user's permissions hold for the file tools as for commands, and writes staged through the
 * archive API. Paths are container paths; the project folder is mounted at its host path, so they
 * agree with the host there.
 */
export class DockerWorkspaceBackend implements WorkspaceBackend {
  readonly cwd: string;
  readonly confinement: BackendConfinement;

  constructor(private readonly container: DockerContainer) {
    this.cwd = container.projectDirectory;
    this.confinement = container.confinement;
  }

  async exec(argv: string[], options: ExecOptions): Promise<ExecResult> {
    const run = await this.run(argv, options);
    return { ...run, stdout: run.stdout.toString("utf8"), stderr: run.stderr.toString("utf8") };
  }

  startBackground(argv: string[], options: Pick<ExecOptions, "cwd" | "env">): Promise<BackgroundProcess> {
    this.checkOpen();
    return this.container.processes.start(argv, options);
  }

  async readFile(path: string): Promise<Buffer> {
    const run = await this.run(["cat", "--", path], { cwd: "/", timeoutMs: FILE_TIMEOUT_MS });
    if (run.exitCode !== 0) throw this.failed(`read ${path}`, run);
    return run.stdout;
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    this.checkOpen();
    const staged = `upload-${randomUUID()}`;
    const { uid, gid } = this.container;
    const tar = writeTar([{ path: staged, data, mode: 0o600, uid, gid }]);
    await this.container.engine.call("PUT", `/containers/${this.container.id}/archive`, {
      // The engine owns extracted files by the container's user with copyUIDGID (Docker; Podman reads the tar's ids).
      query: { path: this.container.privateDir, copyUIDGID: true },
      bytes: tar,
      contentType: "application/x-tar",
    });
    const placed = await this.run(["sh", "-c", PLACE_SCRIPT, "sh", `${this.container.privateDir}/${staged}`, path], {
      cwd: "/",
      timeoutMs: FILE_TIMEOUT_MS,
    });
    if (placed.exitCode !== 0) throw this.failed(`write ${path}`, placed);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const run = await this.run(["sh", "-c", STAT_SCRIPT, "sh", path], { cwd: "/", timeoutMs: FILE_TIMEOUT_MS });
    if (run.exitCode === MISSING) return undefined;
    const [size, seconds, ...kind] = run.stdout.toString("utf8").trim().split(" ");
    if (run.exitCode !== 0 || kind.length === 0) throw this.failed(`stat ${path}`, run);
    const type = kind.join(" ");
    return { size: Number(size), mtimeMs: Number(seconds) * 1000, isFile: type.startsWith("regular"), isDirectory: type === "directory" };
  }

  /** `find` lists the regular files (links not followed, as the local backend's glob), then the pattern is matched here. */
  async glob(pattern: string, options: GlobOptions): Promise<string[]> {
    const pruned = options.ignore.flatMap((ignore) => /^\*\*\/([^/*?[\]{}]+)\/\*\*$/.exec(ignore)?.[1] ?? []);
    const prune =
      pruned.length === 0
        ? []
        : ["(", ...pruned.flatMap((name, index) => [...(index > 0 ? ["-o"] : []), "-name", name]), ")", "-prune", "-o"];
    const run = await this.run(["find", options.cwd, ...prune, "-type", "f", "-print0"], { cwd: "/", timeoutMs: FILE_TIMEOUT_MS });
    const matches = picomatch(pattern, { dot: true });
    const ignored = options.ignore.length > 0 ? picomatch(options.ignore, { dot: true }) : () => false;
    return run.stdout
      .toString("utf8")
      .split("\0")
      .filter((path) => {
        if (path === "") return false;
        const inside = relative(options.cwd, path);
        return matches(inside) && !ignored(inside);
      });
  }

  async grep(args: string[], options: ExecOptions): Promise<ExecResult> {
    if (this.container.ripgrep === undefined) {
      return {
        exitCode: 2,
        stdout: "",
        stderr:
          `ripgrep is not installed in container ${this.container.id.slice(0, 12)}, and the SDK's copy does ` +
          `not run on its architecture: install it in the image (apt-get install ripgrep, apk add ripgrep).`,
        timedOut: false,
        aborted: false,
      };
    }
    return this.exec([this.container.ripgrep, ...args], options);
  }

  private run(argv: readonly string[], options: ExecOptions): Promise<ContainerRun> {
    this.checkOpen();
    return this.container.processes.run(argv, options);
  }

  private checkOpen(): void {
    if (this.container.closed()) {
      throw new WorkspaceError(
        "WORKSPACE_CLOSED",
        `The Docker workspace was closed: container ${this.container.id.slice(0, 12)} is removed. Create and initialize a new workspace.`,
      );
    }
  }

  private failed(what: string, run: ContainerRun): WorkspaceError {
    const cause = run.stderr.toString("utf8").trim() || (run.timedOut ? "timed out" : `exit status ${run.exitCode}`);
    return new WorkspaceError("WORKSPACE_OPERATION_FAILED", `Cannot ${what} in container ${this.container.id.slice(0, 12)}: ${cause}`);
  }
}
