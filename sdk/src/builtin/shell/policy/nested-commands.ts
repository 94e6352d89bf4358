/**
 * Where a command line hides another command, as data, so a deny or ask rule matches the effect and
 * not one spelling (docs/permissions.md#what-a-deny-rule-matches): option values and trailing
 * words that a program runs as a command, and programs that run a command as another user, which
 * a rule on `sudo` also names. Each entry says why, with an example that runs as a test.
 */

export interface CommandSite {
  program: string;
  /** The subcommand words that lead to the site (`submodule foreach`). */
  subcommand?: readonly string[];
  /** Options whose value is a shell command (`-x 'git push'`, `--exec=…`). */
  options?: readonly string[];
  /**
   * The words after the subcommand (and its options) are a command: `script` when the program
   * joins them and hands them to a shell, `argv` when it runs them as they are.
   */
  rest?: "script" | "argv";
  reason: string;
  /** A command a deny rule `Bash(git push:*)` (or `sudo:*` for privilege programs) must match. */
  example: string;
}

export const COMMAND_SITES: readonly CommandSite[] = [
  {
    program: "git",
    subcommand: ["rebase"],
    options: ["-x", "--exec"],
    reason: "git rebase runs the command with the shell after each commit it replays",
    example: "git rebase -x 'git push' main",
  },
  {
    program: "git",
    subcommand: ["submodule", "foreach"],
    rest: "script",
    reason: "git submodule foreach runs its arguments with the shell in every submodule",
    example: "git submodule foreach --recursive 'git push'",
  },
  {
    program: "git",
    subcommand: ["bisect", "run"],
    rest: "argv",
    reason: "git bisect run runs the command at every step of the bisection",
    example: "git bisect run git push",
  },
  {
    program: "watch",
    rest: "script",
    reason: "watch hands its arguments to sh -c, again and again",
    example: "watch -n 5 git push",
  },
  {
    program: "su",
    options: ["-c", "--command", "--session-command"],
    reason: "su runs the command as another user",
    example: "su -c 'git push'",
  },
  {
    program: "runuser",
    options: ["-c", "--command", "--session-command"],
    reason: "runuser runs the command as another user",
    example: "runuser -u app -c 'git push'",
  },
  { program: "run0", rest: "argv", reason: "run0 runs the command as root through systemd", example: "run0 git push" },
  {
    program: "systemd-run",
    rest: "argv",
    reason: "systemd-run runs the command as a transient unit, as root by default",
    example: "systemd-run --user -p Nice=5 git push",
  },
  { program: "pkexec", rest: "argv", reason: "pkexec runs the command as another user through polkit", example: "pkexec git push" },
  {
    program: "flock",
    options: ["-c", "--command"],
    reason: "flock runs the command with the shell while it holds the lock",
    example: "flock /tmp/l -c 'git push'",
  },
  {
    program: "script",
    options: ["-c", "--command"],
    reason: "script runs the command with the shell and records it",
    example: "script -q -c 'git push' /dev/null",
  },
];

/**
 * Programs that reach the same effect as another (`sameAs`): a rule naming that one names them
 * too. Privilege programs are all `sudo`; forks and drop-in clients share their original's subcommands.
 */
export const EQUIVALENT_PROGRAMS: readonly { program: string; sameAs: string; reason: string }[] = [
  { program: "doas", sameAs: "sudo", reason: "OpenBSD's sudo, also packaged for Linux" },
  { program: "run0", sameAs: "sudo", reason: "systemd's sudo replacement" },
  { program: "systemd-run", sameAs: "sudo", reason: "runs a command as root (or --uid) in a transient unit" },
  { program: "pkexec", sameAs: "sudo", reason: "polkit's way to run a command as another user" },
  { program: "su", sameAs: "sudo", reason: "switches user, runs -c COMMAND as that user" },
  { program: "runuser", sameAs: "sudo", reason: "switches user without a password when root" },
  { program: "sudo-rs", sameAs: "sudo", reason: "a reimplementation of sudo" },
  { program: "sudoedit", sameAs: "sudo", reason: "sudo -e: edits files as root" },
  { program: "machinectl", sameAs: "sudo", reason: "machinectl shell runs a command as another user" },
  { program: "tofu", sameAs: "terraform", reason: "OpenTofu is a fork of terraform with the same subcommands" },
  { program: "podman", sameAs: "docker", reason: "podman's command line is docker's" },
  { program: "nerdctl", sameAs: "docker", reason: "containerd's docker-compatible client" },
  { program: "oc", sameAs: "kubectl", reason: "OpenShift's client embeds kubectl's subcommands" },
];

const SAME_AS: ReadonlyMap<string, string> = new Map(EQUIVALENT_PROGRAMS.map((entry) => [entry.program, entry.sameAs]));

/** The program a rule may also know this one by (`doas` → `sudo`, `tofu` → `terraform`). */
export function equivalentProgram(name: string): string | undefined {
  return SAME_AS.get(name);
}

/** How many places after a program's options a trailing command may start (`systemd-run -p X=1 cmd`). */
const MAX_COMMAND_STARTS = 4;

function quote(value: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

/**
 * The command strings a command line hides at the sites above, as shell text to analyse like
 * any other line; undefined for one only known at run time. `words` are the argv's values
 * (undefined where only known at run time), the program first.
 */
export function hiddenCommands(program: string | undefined, words: readonly (string | undefined)[]): (string | undefined)[] {
  const found: (string | undefined)[] = [];
  for (const site of COMMAND_SITES) {
    if (site.program !== program) continue;
    const path = site.subcommand ?? [];
    const start = subcommandEnd(words, path);
    if (start === undefined) continue;
    for (let index = start; index < words.length; index += 1) {
      const word = words[index];
      for (const option of site.options ?? []) {
        if (word === option) found.push(words[index + 1]);
        else if (word?.startsWith(`${option}=`)) found.push(word.slice(option.length + 1));
        else if (/^-[A-Za-z]$/.test(option) && word?.startsWith(option) && !word.startsWith("--") && word.length > 2)
          found.push(word.slice(2));
      }
    }
    if (site.rest !== undefined) found.push(...trailingCommands(words.slice(start), site.rest));
  }
  return found;
}

/** Where the words after `program subcommand…` start (git's global options skipped), or undefined. */
function subcommandEnd(words: readonly (string | undefined)[], path: readonly string[]): number | undefined {
  let index = 1;
  for (const part of path) {
    while (index < words.length && words[index]?.startsWith("-")) index += 1;
    if (words[index] !== part) return undefined;
    index += 1;
  }
  return index;
}

/** The command after the options: it may start after any option (its value unknown to us), so every such start counts. */
function trailingCommands(words: readonly (string | undefined)[], kind: "script" | "argv"): (string | undefined)[] {
  const commands: (string | undefined)[] = [];
  const isOption = (index: number) => words[index]?.startsWith("-") === true;
  for (let index = 0; index < words.length && commands.length < MAX_COMMAND_STARTS; index += 1) {
    const word = words[index];
    if (word === undefined) return [...commands, undefined];
    if (word === "--" || word.startsWith("-")) continue;
    // Every word before it is an option or an option's value.
    if (!words.slice(0, index).every((_, before) => isOption(before) || isOption(before - 1))) break;
    const rest = words.slice(index);
    if (rest.some((part) => part === undefined)) return [...commands, undefined];
    commands.push(kind === "script" ? rest.join(" ") : (rest as string[]).map(quote).join(" "));
  }
  return commands;
}
