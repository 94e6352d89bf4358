import type { ToolBase } from "../tool/tool-base.js";
import { ToolError } from "../tool/errors.js";
import { Bash } from "./bash/bash-tool.js";
import { Edit } from "./files/edit-tool.js";
import { ReadCache } from "./files/read-cache.js";
import { Read } from "./files/read-tool.js";
import { Write } from "./files/write-tool.js";
import { Glob } from "./search/glob-tool.js";
import { Grep } from "./search/grep-tool.js";
import { TaskStore } from "./tasks/task-store.js";
import { TaskCreate, TaskGet, TaskList, TaskUpdate } from "./tasks/task-tools.js";
import type { WorkspaceBackend } from "./workspace/workspace-backend.js";

/** What the tools made by one `createBuiltinTools` call share: where they work, one read ledger and one plan for direct calls. */
interface SharedParts {
  cwd: string;
  backend: WorkspaceBackend | undefined;
  readCache: ReadCache;
  store: TaskStore;
}

/** Each built-in tool by its name. */
const BUILTIN_TOOLS: Record<string, (shared: SharedParts) => ToolBase<any>> = {
  Bash: ({ cwd, backend }) => new Bash({ cwd, backend }),
  Read: ({ cwd, backend, readCache }) => new Read({ cwd, backend, readCache }),
  Write: ({ cwd, backend, readCache }) => new Write({ cwd, backend, readCache }),
  Edit: ({ cwd, backend, readCache }) => new Edit({ cwd, backend, readCache }),
  Glob: ({ cwd, backend }) => new Glob({ cwd, backend }),
  Grep: ({ cwd, backend }) => new Grep({ cwd, backend }),
  TaskCreate: ({ store }) => new TaskCreate({ store }),
  TaskGet: ({ store }) => new TaskGet({ store }),
  TaskList: ({ store }) => new TaskList({ store }),
  TaskUpdate: ({ store }) => new TaskUpdate({ store }),
};

export const BUILTIN_TOOL_NAMES = Object.keys(BUILTIN_TOOLS);

/**
 * The named built-in tools (e.g. `["Read", "Grep"]`) working in `cwd`, through `options.backend`
 * (a workspace's, docs/workspaces.md) or the local machine. Called directly, without a Toolkit's
 * agent state, they share one read ledger and one plan. Throws on an unknown name, listing the known ones.
 *
 * @example
 * const tools = createBuiltinTools(BUILTIN_TOOL_NAMES, workspace.projectDirectory, { backend: workspace.getBackend() });
 */
export function createBuiltinTools(names: readonly string[], cwd: string, options: { backend?: WorkspaceBackend } = {}): ToolBase<any>[] {
  const unknown = names.filter((name) => !Object.hasOwn(BUILTIN_TOOLS, name));
  if (unknown.length > 0) {
    throw new ToolError(
      "BUILTIN_TOOL_UNKNOWN",
      `Unknown built-in tool${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; ` +
        `the built-ins are ${BUILTIN_TOOL_NAMES.join(", ")} (names are case-sensitive).`,
    );
  }
  const shared: SharedParts = { cwd, backend: options.backend, readCache: new ReadCache(), store: new TaskStore() };
  return [...new Set(names)].map((name) => BUILTIN_TOOLS[name]!(shared));
}
