import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { ResolvedCommand } from "../command-wrappers.js";
import { gitRepositoryProblem } from "../git-config-hazards.js";
import type { ProgramSpec } from "./command-spec.js";

/**
 * Facts about the directories a command runs in (issue 24: "program semantics the specs do not
 * model", "project files that configure read-only tools"): a steering file above the directory
 * (`rust-toolchain.toml` makes `cargo --version` run the toolchain the checkout names), and, for
 * a command another one runs (`find -exec git … \;`), the repository settings of the directory
 * it runs in, which the top-level check of git commands never sees.
 */

type Directories = readonly (string | undefined)[] | undefined;

/** Why the spec's steering files make the command not read-only in one of `directories`, or undefined. */
export function steeringProblem(spec: ProgramSpec, directories: Directories): string | undefined {
  const steering = spec.steeredBy;
  if (steering === undefined || steering.length === 0) return undefined;
  for (const directory of directories ?? [undefined]) {
    if (directory === undefined)
      return `${spec.name} runs in a directory only known at run time, where a project file (${steering[0]!.path}) may steer it`;
    for (const folder of projectFolders(directory)) {
      const found = steering.find((file) => existsSync(join(folder, file.path)));
      if (found) return `${join(folder, found.path)} steers ${spec.name}: ${found.reason}`;
    }
  }
  return undefined;
}

/** The directory and its parents, up to (not including) the home, whose files are the user's own, or the root. */
function projectFolders(directory: string): string[] {
  const home = homedir();
  const folders: string[] = [];
  let current = realDirectory(directory);
  while (current !== home && dirname(current) !== current) {
    folders.push(current);
    current = dirname(current);
  }
  return folders;
}

/** The real path of the directory, or of its nearest existing parent (a folder the line creates has no files yet). */
function realDirectory(directory: string): string {
  for (let current = directory; ; current = dirname(current)) {
    try {
      return realpathSync(current);
    } catch {
      if (dirname(current) === current) return current;
    }
  }
}

/** For a command another runs: facts of the directories it runs in that the checks of top-level commands do not cover. */
export function nestedCommandProblem(command: ResolvedCommand, directories: Directories): string | undefined {
  if (command.name !== "git") return undefined;
  for (const directory of directories ?? [undefined]) {
    const problem = gitRepositoryProblem(command.args, directory);
    if (problem) return problem;
  }
  return undefined;
}
