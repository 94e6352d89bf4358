import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { WorkspaceError } from "./workspace-error.js";

/** The real path of a workspace's project folder (default the process's cwd); a clear error when it is no folder. */
export function projectFolder(path: string | undefined, what: string): string {
  const absolute = resolve(path ?? process.cwd());
  if (!statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) {
    throw new WorkspaceError(
      "WORKSPACE_PROJECT_MISSING",
      `The ${what}'s projectDirectory ${absolute} is not a folder: create it, or pass the folder the agent should work in.`,
    );
  }
  // Real paths: tools judge paths on them, and a bind mount of a symlinked folder would land elsewhere.
  return realpathSync(absolute);
}
