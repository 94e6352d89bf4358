/**
 * Environment variables the warm sandbox's bash launcher cannot hand on unchanged: bash sets,
 * replaces or acts on them. A tool whose sandbox environment holds one (only a granted `env`
 * capability can bring one in) runs in a sandbox per call instead, where its program is started
 * directly and sees exactly its environment (docs/sandbox.md#binary-tools). A test checks every
 * variable bash knows against this list.
 */
export const LAUNCHER_ALTERED_ENV: ReadonlyArray<{ names: RegExp; reason: string }> = [
  {
    names: /^BASH/,
    reason: "bash's own (BASH_VERSION, BASHPID, BASHOPTS, ...): set or replaced by bash, or acted on (BASH_XTRACEFD, BASH_COMPAT)",
  },
  { names: /^(PWD|OLDPWD|SHLVL|_)$/, reason: "set by bash for itself and for every command it starts (PWD also by bubblewrap)" },
  { names: /^(SHELLOPTS|POSIXLY_CORRECT)$/, reason: "shell options: they change how the launcher itself runs" },
  { names: /^(IFS|PS1|PS2|PS4|OPTIND|OPTERR|LINENO|HISTCMD|COMP_WORDBREAKS)$/, reason: "reset to bash's defaults when it starts" },
  { names: /^(RANDOM|SRANDOM|EPOCHSECONDS|EPOCHREALTIME|PPID)$/, reason: "computed by bash: a new value on every use" },
  { names: /^TMOUT$/, reason: "a read timeout: it would end the launcher's request loop when the tool is idle" },
];

/** Whether the launcher hands `env` on exactly as given. */
export function launcherKeepsEnvironment(env: Record<string, string>): boolean {
  return Object.keys(env).every((name) => !LAUNCHER_ALTERED_ENV.some((entry) => entry.names.test(name)));
}
