import type { ToolBase } from "../tool/tool-base.js";
import { ToolError } from "../tool/errors.js";
import { Bash } from "./bash/bash-tool.js";
import { Edit } from "./files/edit-tool.js";
import { Read } from "./files/read-tool.js";
import { Write } from "./files/write-tool.js";
import { Glob } from "./search/glob-tool.js";
import { Grep } from "./search/grep-tool.js";
import { TaskCreate, TaskGet, TaskList, TaskUpdate } from "./tasks/task-tools.js";

/** Each built-in tool by its name, built for one working directory. */
const BUILTIN_TOOLS: Record<string, (cwd: string) => ToolBase<any>> = {
  Bash: (cwd) => new Bash({ cwd }),
  Read: (cwd) => new Read({ cwd }),
  Write: (cwd) => new Write({ cwd }),
  Edit: (cwd) => new Edit({ cwd }),
  Glob: (cwd) => new Glob({ cwd }),
  Grep: (cwd) => new Grep({ cwd }),
  TaskCreate: () => new TaskCreate(),
  TaskGet: () => new TaskGet(),
  TaskList: () => new TaskList(),
  TaskUpdate: () => new TaskUpdate(),
};

export const BUILTIN_TOOL_NAMES = Object.keys(BUILTIN_TOOLS);

/** The named built-in tools (e.g. `["Read", "Grep"]`) working in `cwd`; throws on an unknown name, listing the known ones. */
export function createBuiltinTools(names: readonly string[], cwd: string): ToolBase<any>[] {
  const unknown = names.filter((name) => !Object.hasOwn(BUILTIN_TOOLS, name));
  if (unknown.length > 0) {
    throw new ToolError(
      "BUILTIN_TOOL_UNKNOWN",
      `Unknown built-in tool${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; the built-ins are ${BUILTIN_TOOL_NAMES.join(", ")} (names are case-sensitive).`,
    );
  }
  return [...new Set(names)].map((name) => BUILTIN_TOOLS[name]!(cwd));
}
