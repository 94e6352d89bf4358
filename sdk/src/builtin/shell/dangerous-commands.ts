import { homedir } from "node:os";
import { dirname, resolve } from "node:path";
import { hasOption, operands } from "./command-arguments.js";
import type { ResolvedCommand } from "./command-wrappers.js";
import type { ShellScript, SimpleCommand } from "./shell-script.js";
import { expandHome } from "../../permission/working-directories.js";

/**
 * Commands that destroy data or the system, judged on parsed arguments after wrappers are peeled
 * (so `/bin/rm`, `\rm`, `env rm`, `sudo rm`, `xargs rm` are all `rm`). Each finding is a
 * bypass-immune ASK: an allow rule such as `Bash(rm:*)` must not silently pass `rm -rf ~`.
 */
export function dangerousCommandProblem(command: ResolvedCommand, cwd: string): string | undefined {
  const name = command.name;
  if (name === undefined) return undefined;
  const args = command.args;
  if (name === "rm" || name === "rmdir" || name === "shred" || name === "unlink")
    return dangerousRemoval(name, args, cwd, command.appendsArguments);
  if (/^mkfs(\..+)?$/.test(name) || DISK_TOOLS.has(name)) return `${name} formats or repartitions disks`;
  if (POWER_COMMANDS.has(name)) return `${name} stops the machine`;
  if (name === "dd" && args.some((word) => word.value === undefined || word.value.startsWith("of=")))
    return "dd of= overwrites a file or device";
  if (name === "chmod" && operands(args).some((word) => isWorldOrSetuid(word.value ?? "")))
    return "chmod makes files world-writable or setuid";
  if (
    (name === "chown" || name === "chgrp" || name === "chmod") &&
    hasOption(args, ["-R", "--recursive"]) &&
    args.some((word) => isCriticalPath(word.value, cwd))
  ) {
    return `${name} -R on a system directory`;
  }
  if (
    (name === "kill" || name === "pkill" || name === "killall") &&
    args.some((word) => ["-9", "-KILL", "-SIGKILL", "-s KILL", "-1"].includes(word.value ?? ""))
  ) {
    return `${name} with SIGKILL or every process`;
  }
  return undefined;
}

const DISK_TOOLS = new Set(["fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "wipefs", "mkswap", "format", "mke2fs", "badblocks"]);
const POWER_COMMANDS = new Set(["shutdown", "reboot", "halt", "poweroff", "init", "telinit"]);

function isWorldOrSetuid(mode: string): boolean {
  if (/^0?[0-7]{3,4}$/.test(mode)) {
    const digits = mode.padStart(4, "0").slice(-4);
    return (Number(digits[3]) & 2) !== 0 || (Number(digits[0]) & 6) !== 0;
  }
  return /^[ugoa]*\+[rwxXt]*s|^[oa]*[+=][rwxXst]*w|^[+=][rwxXst]*w/.test(mode);
}

/** `rm` of `/`, `~`, a top-level directory, the home directory, the working directory or an ancestor, a bare `*`, or an unknown target. */
function dangerousRemoval(name: string, args: ResolvedCommand["args"], cwd: string, appendsArguments: boolean): string | undefined {
  if (appendsArguments) return undefined;
  for (const word of operands(args)) {
    if (word.value === undefined) return `${name} of ${word.text}, only known at run time, could remove anything`;
    const value = word.value;
    if (value === "*" || value === "./*" || value === ".*") return `${name} ${value} removes everything in the working directory`;
    if (/\/\*$/.test(value) && isCriticalPath(value.slice(0, -2) || "/", cwd))
      return `${name} ${value} removes everything in a critical directory`;
    const path = resolve(cwd, expandHome(value));
    if (isCriticalPath(value, cwd) || cwd === path || cwd.startsWith(`${path}/`)) {
      return (
        `Dangerous removal operation detected: '${value}'. This command ` +
        `would remove a critical system directory or the working directory.`
      );
    }
  }
  return undefined;
}

/** `/`, a direct child of `/` (`/usr`, `/etc`), the home directory or one of its ancestors. */
function isCriticalPath(value: string | undefined, cwd: string): boolean {
  if (value === undefined) return false;
  if (value.startsWith("~") && !value.startsWith("~/") && value !== "~") return true;
  const path = resolve(cwd, expandHome(value));
  if (path === "/" || dirname(path) === "/") return true;
  const home = homedir();
  return home === path || home.startsWith(`${path}/`);
}

const DOWNLOADERS = new Set(["curl", "wget", "fetch", "nc", "ncat", "socat", "aria2c"]);
const INTERPRETERS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "csh",
  "tcsh",
  "python",
  "python3",
  "perl",
  "ruby",
  "node",
  "php",
  "lua",
  "osascript",
  "pwsh",
]);

/**
 * Script-level patterns: a download piped into an interpreter (`curl … | sh`), and a function
 * that calls itself (`:(){ :|:& };:`, a fork bomb).
 */
export function dangerousScriptProblem(
  script: ShellScript,
  resolveName: (command: SimpleCommand) => string | undefined,
): string | undefined {
  for (const stages of script.pipelines) {
    const names = stages.map(resolveName);
    const downloadAt = names.findIndex((name) => name !== undefined && DOWNLOADERS.has(name));
    if (downloadAt >= 0 && names.slice(downloadAt + 1).some((name) => name !== undefined && INTERPRETERS.has(name))) {
      return "a download piped into an interpreter runs code from the network";
    }
  }
  for (const construct of script.constructs) {
    if (
      construct.type === "function" &&
      construct.name !== undefined &&
      construct.commands.some((command) => command.words[0]?.value === construct.name)
    ) {
      return `the function ${construct.name} calls itself (a fork bomb pattern)`;
    }
  }
  return undefined;
}
