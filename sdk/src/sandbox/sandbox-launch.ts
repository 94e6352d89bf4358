/**
 * The first process of every sandboxed launch, started by the agent before bubblewrap
 * (docs/sandbox.md#how-a-sandbox-starts). It runs `bash` with no environment but one variable of
 * its own, so nothing of the agent's (`BASH_ENV`, exported functions, `LD_PRELOAD`) steers it, and:
 * 1. closes every descriptor but 0-2 and the ones the caller hands over: a descriptor the agent
 *    inherited without close-on-exec would otherwise be readable inside the sandbox;
 * 2. joins the sandbox's cgroups, so the totals count everything it starts;
 * 3. opens bubblewrap's options that hold the environment (`--clearenv`, `--setenv NAME VALUE`) on a
 *    descriptor, decoded from that one variable: they never appear on a command line, which every
 *    local user can read, and bubblewrap closes the descriptor once read;
 * 4. opens the seccomp program on a descriptor (bubblewrap closes it too), then runs the next step.
 */
const LAUNCH_SCRIPT = [
  'keep=" 0 1 2 $1 " cgroups=$2 argsfd=$3 seccomp=$4 seccompfd=$5',
  "shift 5",
  "for fd in /proc/$$/fd/*; do",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
  "  fd=${fd##*/}",
  '  case $keep in *" $fd "*) ;; *) eval "exec $fd>&-" 2>/dev/null ;; esac',
  "done",
  'if [ -n "$cgroups" ]; then',
  "  IFS=:",
  '  for procs in $cgroups; do echo $$ >"$procs" || exit 125; done',
  "  unset IFS",
  "fi",
  'eval "exec $argsfd< <(/usr/bin/base64 -d <<<\\"\\$AGENT_TOOLS_SANDBOX_ARGS\\")" || exit 125',
  "unset AGENT_TOOLS_SANDBOX_ARGS",
  'if [ -n "$seccomp" ]; then eval "exec $seccompfd<\\"\\$seccomp\\"" || exit 125; fi',
  'exec "$@"',
].join("\n");

export const LAUNCH_SHELL = "/bin/bash";
/** The variable carrying the environment options; `bash` holds it only until it has opened them. */
const ARGS_VARIABLE = "AGENT_TOOLS_SANDBOX_ARGS";
/** One environment string may hold at most 128 KiB (MAX_ARG_STRLEN); base64 grows by a third. */
const MAX_ENVIRONMENT_BYTES = 96 * 1024;

export interface LaunchPlan {
  /** Descriptors above 2 the sandboxed program receives (a Python worker's request and reply pipes). */
  passFds: readonly number[];
  /** `cgroup.procs` files the launch joins before anything else starts. */
  cgroupProcs: readonly string[];
  /** The sandboxed program's whole environment. */
  env: Readonly<Record<string, string>>;
  /** The seccomp program's file, or undefined for none. */
  seccompFile: string | undefined;
  /**
   * What runs next, given the descriptors its options must name: bubblewrap's command line (with
   * `--args <argsFd>` and `--seccomp <seccompFd>`), possibly behind a step of its own.
   */
  next(fds: { argsFd: number; seccompFd: number }): string[];
}

/** The command line and environment that start a launch. */
export function launchCommand(plan: LaunchPlan): { command: string; args: string[]; env: Record<string, string> } {
  const argsFd = Math.max(2, ...plan.passFds) + 1;
  const seccompFd = argsFd + 1;
  const options = ["--clearenv", ...Object.entries(plan.env).flatMap(([name, value]) => ["--setenv", name, value])];
  const blob = Buffer.from(options.map((option) => `${option}\0`).join(""), "utf8");
  if (blob.length > MAX_ENVIRONMENT_BYTES) {
    throw new RangeError(
      `the sandboxed environment takes ${blob.length} bytes, more than the ` +
        `${MAX_ENVIRONMENT_BYTES} a launch can carry: pass fewer or shorter variables`,
    );
  }
  for (const [name, value] of Object.entries(plan.env)) {
    if (name.includes("\0") || value.includes("\0") || name.includes("=")) {
      throw new TypeError(`the sandboxed environment variable ${JSON.stringify(name)} holds a NUL byte or its name an '='`);
    }
  }
  return {
    command: LAUNCH_SHELL,
    args: [
      "--noprofile",
      "--norc",
      "-c",
      LAUNCH_SCRIPT,
      "agent-tools-launch",
      plan.passFds.join(" "),
      plan.cgroupProcs.join(":"),
      String(argsFd),
      plan.seccompFile ?? "",
      String(seccompFd),
      ...plan.next({ argsFd, seccompFd }),
    ],
    env: { [ARGS_VARIABLE]: blob.toString("base64") },
  };
}
