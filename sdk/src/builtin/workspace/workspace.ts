import type { WorkspaceBackend } from "./workspace-backend.js";
import { WorkspaceError } from "./workspace-error.js";

/**
 * Where an agent's built-in tools work (docs/workspaces.md): initialize it, give its backend to the
 * tools, close it when the agent is done. `LocalWorkspace` (the default: this machine),
 * `SandboxedLocalWorkspace` (this machine, commands in the OS sandbox) and `DockerWorkspace` (a
 * container) implement it; a hosted sandbox (E2B and the like) implements it too, usually by
 * extending `WorkspaceBase`.
 *
 * @example
 * const workspace = new DockerWorkspace({ image: "debian:bookworm", projectDirectory: "/work/app" });
 * await workspace.initialize();
 * const backend = workspace.getBackend();
 * const toolkit = new Toolkit({ tools: [new Bash({ backend }), new Read({ backend }), new Write({ backend })] });
 * // ... the agent loop ...
 * await workspace.close();
 */
export interface Workspace {
  /** Prepares it (a sandbox checked, a container started). Idempotent; concurrent calls share one start. */
  initialize(): Promise<void>;
  /**
   * The backend the built-in tools take as `backend`. Throws `WORKSPACE_NOT_INITIALIZED` before `initialize`,
   * `WORKSPACE_CLOSED` after `close`.
   */
  getBackend(): WorkspaceBackend;
  /** Releases what it holds (the container is removed). Idempotent; the workspace cannot be initialized again. */
  close(): Promise<void>;
}

/**
 * The lifecycle every workspace shares: `start` runs once, on the first `initialize`; `getBackend`
 * works between a finished start and `close`; `stop` runs once, on the first `close` after a start
 * (also after a start that is still running). Extend it to adapt another environment.
 *
 * @example
 * class MySandboxWorkspace extends WorkspaceBase {
 *   protected async start() { this.sandbox = await mySdk.create(); return new MySandboxBackend(this.sandbox); }
 *   protected async stop() { await this.sandbox.kill(); }
 * }
 */
export abstract class WorkspaceBase implements Workspace {
  private starting: Promise<WorkspaceBackend> | undefined;
  private backend: WorkspaceBackend | undefined;
  private closed = false;

  /** Makes the backend; a throw leaves the workspace uninitialized, and `initialize` may be tried again. */
  protected abstract start(): Promise<WorkspaceBackend>;

  /** Releases what `start` made. */
  protected async stop(): Promise<void> {}

  /** For messages: what this workspace is ("Docker workspace on debian:bookworm"). */
  protected abstract get label(): string;

  async initialize(): Promise<void> {
    if (this.closed) throw new WorkspaceError("WORKSPACE_CLOSED", `The ${this.label} was closed; create a new one.`);
    this.starting ??= this.start().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    this.backend = await this.starting;
  }

  getBackend(): WorkspaceBackend {
    if (this.closed) throw new WorkspaceError("WORKSPACE_CLOSED", `The ${this.label} was closed; create a new one.`);
    if (this.backend === undefined) {
      throw new WorkspaceError("WORKSPACE_NOT_INITIALIZED", `The ${this.label} is not ready: await workspace.initialize() first.`);
    }
    return this.backend;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const starting = this.starting;
    this.backend = undefined;
    if (starting === undefined) return;
    // A start still under way is finished first, so what it makes is released too.
    if (await starting.then(() => true).catch(() => false)) await this.stop();
  }
}
