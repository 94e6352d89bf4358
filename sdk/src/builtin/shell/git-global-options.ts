import type { ShellWord } from "./shell-word.js";

/** git global options that take the next word as their value. */
const GLOBAL_OPTIONS_WITH_VALUE = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--exec-path",
  "--super-prefix",
]);

/** `git -C dir --no-pager push` → `git push ...`: global options dropped, so deny rules see the subcommand. */
export function withoutGitGlobalOptions(words: ShellWord[]): ShellWord[] {
  let index = 1;
  while (index < words.length && (words[index]!.value ?? "").startsWith("-")) {
    const option = words[index]!.value!;
    index += GLOBAL_OPTIONS_WITH_VALUE.has(option) ? 2 : 1;
  }
  return [words[0]!, ...words.slice(index)];
}
