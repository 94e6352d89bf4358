import type { PermissionContext } from "../../permission/types.js";
import { effectiveWorkingDirectories, ruleBaseDirectory, type WorkingSet } from "../../permission/working-directories.js";
import type { DangerousPathLists } from "./dangerous-paths.js";
import type { ReadScope } from "./read-confinement.js";

/** The parts of a permission context that say where reading needs no question. */
type ReadableSet = WorkingSet & Pick<PermissionContext, "readOnlyDirectories">;

/**
 * Where a built-in file or search tool works. `cwd` resolves the tool's relative inputs (the
 * process's when not configured); only a configured cwd counts as a working directory, and the
 * engine's context says where the project is.
 */
export class ToolScope {
  constructor(
    readonly cwd: string,
    /** The cwd given in the tool's options (or its backend's), undefined when it defaulted to the process's. */
    readonly configuredCwd: string | undefined,
    readonly lists: DangerousPathLists,
  ) {}

  /** The directories this tool may read (and, in ACCEPT_EDITS, edit) unasked. */
  workingDirectories(context?: WorkingSet): string[] {
    return effectiveWorkingDirectories(context, this.configuredCwd);
  }

  /** What relative rule paths resolve against. */
  ruleBase(context?: WorkingSet): string {
    return ruleBaseDirectory(context, this.configuredCwd);
  }

  /** Where reads need no question: the working directories and the context's read-only ones (loaded skills' folders). */
  readScope(context?: ReadableSet): ReadScope {
    const readable = [...this.workingDirectories(context), ...(context?.readOnlyDirectories ?? [])];
    return { workingDirectories: readable, lists: this.lists, cwd: this.cwd };
  }
}
