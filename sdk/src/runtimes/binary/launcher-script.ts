import { CALL_FILES } from "./call-folder.js";

/** bash's path on every distribution (merged /usr or not); the sandbox's system base mounts /bin. */
export const LAUNCHER_SHELL = "/bin/bash";

/**
 * The launcher a warm binary sandbox runs (docs/sandbox.md#binary-tools). It uses bash builtins
 * only, so the one program it ever executes is the tool, and the tool gets the environment,
 * working directory and limits the launcher got from the sandbox. `--norc` keeps bash from
 * reading `~/.bashrc` (the tool's own state folder), which it does for `-c` with a socket on stdin
 * (Node's pipes are sockets); `-p` keeps it from reading BASH_ENV or importing functions. PWD is
 * kept: bubblewrap sets it to the working directory, as it does for a sandbox per call. Lines in,
 * on stdin:
 *   run <id>      start `<exe> "$(< <outbox>/<id>/request.json)" <outbox>/<id>/output.json` as its
 *                 own process group, stdin /dev/null, stdout and stderr into files beside the output
 *   kill <pgid>   SIGKILL a call's process group (its timeout)
 * Lines out, on stdout: `started <id> <pgid>` and `done <id> <status>` (128 + N after signal N).
 * When the tool's main process ends, what it left in its process group is killed with it.
 */
const SCRIPT = `
unset OLDPWD SHLVL
set -m
exe=$1 outbox=$2
while IFS=' ' read -r verb arg; do
  case $verb in
  run)
    [[ $arg =~ ^[0-9a-f-]+$ ]] || continue
    {
      dir=$outbox/$arg
      IFS= read -r -d '' request <"$dir/${CALL_FILES.request}"
      ( exec "$exe" "$request" "$dir/${CALL_FILES.output}" ) </dev/null >"$dir/${CALL_FILES.stdout}" 2>"$dir/${CALL_FILES.stderr}"
      echo "done $arg $?"
      kill -KILL 0
    } &
    echo "started $arg $!"
    disown
    ;;
  kill)
    [[ $arg =~ ^[0-9]+$ ]] && kill -KILL -- "-$arg" 2>/dev/null
    ;;
  esac
done
`;

/** The launcher's command line for `executable`, taking call folders under `outbox`. */
export function launcherArgv(executable: string, outbox: string): string[] {
  return [LAUNCHER_SHELL, "--norc", "-p", "-c", SCRIPT, "agent-tools-binary-launcher", executable, outbox];
}
