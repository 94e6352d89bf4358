import { LocalWorkspaceBackend } from "./local-workspace-backend.js";
import { projectFolder } from "./project-folder.js";
import { WorkspaceBase } from "./workspace.js";
import type { WorkspaceBackend } from "./workspace-backend.js";

export interface LocalWorkspaceOptions {
  /** The folder the agent works in: the tools' cwd. Default the process's cwd. */
  projectDirectory?: string;
}

/**
 * This machine, as the agent's user: the default workspace (docs/workspaces.md). Its backend is a
 * `LocalWorkspaceBackend` in the project folder; the Bash tool adds its own OS sandbox to it
 * (`sandbox: "auto"`), the file tools their permission checks.
 *
 * @example
 * const workspace = new LocalWorkspace({ projectDirectory: "/work/app" });
 * await workspace.initialize();
 * const tools = createBuiltinTools(BUILTIN_TOOL_NAMES, "/work/app", { backend: workspace.getBackend() });
 */
export class LocalWorkspace extends WorkspaceBase {
  constructor(private readonly options: LocalWorkspaceOptions = {}) {
    super();
  }

  protected get label(): string {
    return "local workspace";
  }

  protected async start(): Promise<WorkspaceBackend> {
    return new LocalWorkspaceBackend({ cwd: projectFolder(this.options.projectDirectory, this.label) });
  }
}
