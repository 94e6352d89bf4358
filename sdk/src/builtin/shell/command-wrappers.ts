import { posix } from "node:path";
import type { Assignment, SimpleCommand } from "./shell-script.js";
import type { ShellWord } from "./shell-word.js";

/**
 * How a wrapper command (`env`, `sudo`, `timeout`, `xargs`...) finds the command it runs.
 * `benign` wrappers run their command unchanged (allow rules may look through them);
 * the others change privilege, environment or arguments, so only deny rules look through them.
 */
interface WrapperSpec {
  /** Options that take a value as the next word (or inline: `-uroot`, `--user=root`). */
  valueOptions: readonly string[];
  /** Options after which the wrapper runs nothing (`command -v x` only prints a path). */
  queryOptions?: readonly string[];
  /** Options whose effect the analysis cannot follow (`env -S` splits a string into a command). */
  opaqueOptions?: readonly string[];
  /** Positional words before the command (`timeout 5 cmd`). */
  leadingOperands?: number;
  /** `env` and `sudo` accept `NAME=value` words before the command. */
  acceptsAssignments?: boolean;
  benign: boolean;
  privileged?: boolean;
  /** `xargs` appends words read from stdin: the argument list is unknown. */
  appendsArguments?: boolean;
  /** `env -i`, `env -u X`: any option changes how the command runs, so allow rules must see it. */
  optionsChangeCommand?: boolean;
  /** `env -C dir`, `sudo -D dir`: the command runs elsewhere. */
  directoryOptions?: readonly string[];
}

const WRAPPERS = new Map<string, WrapperSpec>(
  Object.entries({
    command: { valueOptions: [], queryOptions: ["-v", "-V"], benign: true },
    // Multi-call binaries run the applet named next: `busybox rm` is `rm`.
    busybox: { valueOptions: [], benign: true },
    toybox: { valueOptions: [], benign: true },
    builtin: { valueOptions: [], benign: true },
    exec: { valueOptions: ["-a"], benign: true },
    nohup: { valueOptions: [], benign: true },
    setsid: { valueOptions: [], benign: true },
    nice: { valueOptions: ["-n", "--adjustment"], benign: true },
    ionice: {
      valueOptions: ["-c", "-n", "--class", "--classdata"],
      opaqueOptions: ["-p", "--pid", "-P", "--pgid", "-u", "--uid"],
      benign: true,
    },
    time: { valueOptions: ["-f", "--format"], opaqueOptions: ["-o", "--output", "-a", "--append"], benign: true },
    timeout: { valueOptions: ["-s", "--signal", "-k", "--kill-after"], leadingOperands: 1, benign: true },
    stdbuf: { valueOptions: ["-i", "-o", "-e", "--input", "--output", "--error"], benign: true },
    env: {
      valueOptions: ["-u", "--unset"],
      opaqueOptions: ["-S", "--split-string", "-P"],
      directoryOptions: ["-C", "--chdir"],
      acceptsAssignments: true,
      optionsChangeCommand: true,
      benign: true,
    },
    sudo: {
      valueOptions: [
        "-u",
        "--user",
        "-g",
        "--group",
        "-h",
        "--host",
        "-p",
        "--prompt",
        "-r",
        "--role",
        "-t",
        "--type",
        "-U",
        "--other-user",
        "-T",
        "--command-timeout",
        "-C",
        "--close-from",
        "-R",
        "--chroot",
      ],
      queryOptions: [
        "-l",
        "--list",
        "-v",
        "--validate",
        "-k",
        "-K",
        "--reset-timestamp",
        "--remove-timestamp",
        "-e",
        "--edit",
        "-V",
        "--version",
      ],
      directoryOptions: ["-D", "--chdir"],
      acceptsAssignments: true,
      benign: false,
      privileged: true,
    },
    doas: { valueOptions: ["-u", "-C"], benign: false, privileged: true },
    xargs: {
      valueOptions: [
        "-a",
        "--arg-file",
        "-d",
        "--delimiter",
        "-E",
        "-I",
        "-L",
        "--max-lines",
        "-n",
        "--max-args",
        "-P",
        "--max-procs",
        "-s",
        "--max-chars",
        "--process-slot-var",
      ],
      benign: false,
      appendsArguments: true,
    },
    coproc: { valueOptions: [], benign: false },
  }),
);

const PRIVILEGE_COMMANDS = new Set(["sudo", "doas", "su", "pkexec", "runuser", "sudoedit"]);

/** Directories whose binaries are the standard ones: `/usr/bin/git` is `git`, `/tmp/x/git` is not. */
const SYSTEM_BIN_DIRECTORIES = new Set(["/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin"]);

export interface ResolvedCommand {
  command: SimpleCommand;
  /** The argv after peeling 0, 1, 2... wrappers; the last one is the command that finally runs. */
  layers: ShellWord[][];
  /** How many leading layers a benign wrapper chain spans (allow rules may match any of them). */
  benignLayers: number;
  /** The program that finally runs (basename for system directories), undefined when unknown. */
  name: string | undefined;
  args: ShellWord[];
  wrappers: string[];
  /** Prefix assignments and those given to `env`/`sudo`. */
  assignments: Assignment[];
  privileged: boolean;
  appendsArguments: boolean;
  changesDirectory: boolean;
  /** Why the final command could not be determined, if so. */
  opaque: string | undefined;
}

/** The canonical program name: quotes and escapes are already gone, system directories are dropped. */
export function programName(word: ShellWord | undefined): string | undefined {
  if (!word || word.value === undefined || word.expands) return undefined;
  // `/usr/bin/../bin/rm` and `//bin/rm` are `/usr/bin/rm` and `/bin/rm`.
  const value = word.value.startsWith("/") ? posix.normalize(word.value) : word.value;
  const slash = value.lastIndexOf("/");
  if (slash < 0) return value;
  return SYSTEM_BIN_DIRECTORIES.has(value.slice(0, slash).replace(/\/+$/, "") || "/") ? value.slice(slash + 1) : value;
}

export function resolveCommand(command: SimpleCommand): ResolvedCommand {
  const resolved: ResolvedCommand = {
    command,
    layers: [command.words],
    benignLayers: 1,
    name: undefined,
    args: [],
    wrappers: [],
    assignments: [...command.assignments],
    privileged: false,
    appendsArguments: false,
    changesDirectory: false,
    opaque: undefined,
  };
  let words = command.words;
  // Prefix assignments are judged by the rule matcher (safe ones may be ignored), not here.
  let benign = true;
  for (;;) {
    const name = programName(words[0]);
    if (name !== undefined && PRIVILEGE_COMMANDS.has(name)) resolved.privileged = true;
    const spec = name === undefined ? undefined : WRAPPERS.get(name);
    const peeled = spec ? peelWrapper(spec, words, resolved) : undefined;
    if (!spec || !peeled) {
      resolved.name = name;
      resolved.args = words.slice(1);
      return resolved;
    }
    resolved.wrappers.push(name!);
    benign &&= spec.benign && peeled.cleanlyPeeled;
    if (benign) resolved.benignLayers += 1;
    words = peeled.rest;
    resolved.layers.push(words);
  }
}

/**
 * The option a word gives the wrapper. In a cluster (`env -iS'cmd'`, `sudo -Eu root`) every letter
 * is an option until one that takes a value: the first letter that matters (query, opaque, value
 * or directory option) is the one returned.
 */
function wrapperOption(spec: WrapperSpec, value: string): { option: string; inlineValue: boolean } {
  if (value.startsWith("--"))
    return { option: value.includes("=") ? value.slice(0, value.indexOf("=")) : value, inlineValue: value.includes("=") };
  const special = [...spec.valueOptions, ...(spec.queryOptions ?? []), ...(spec.opaqueOptions ?? []), ...(spec.directoryOptions ?? [])];
  for (let position = 1; position < value.length; position += 1) {
    const option = `-${value[position]}`;
    if (special.includes(option)) return { option, inlineValue: position < value.length - 1 };
  }
  return { option: value.slice(0, 2), inlineValue: false };
}

interface Peeled {
  rest: ShellWord[];
  /** False when options or assignments were given (allow rules must then see the wrapper). */
  cleanlyPeeled: boolean;
}

/** Skips the wrapper's options and operands; undefined when it runs no command (it is then the program). */
function peelWrapper(spec: WrapperSpec, words: ShellWord[], resolved: ResolvedCommand): Peeled | undefined {
  let index = 1;
  let cleanlyPeeled = true;
  let operands = spec.leadingOperands ?? 0;
  while (index < words.length) {
    const word = words[index]!;
    const value = word.value;
    if (value === undefined || word.expands) {
      resolved.opaque = `the arguments of ${words[0]!.text} are only known at run time`;
      return undefined;
    }
    if (value === "--") {
      index += 1;
      break;
    }
    if (value.startsWith("-") && value.length > 1) {
      const { option, inlineValue } = wrapperOption(spec, value);
      if (spec.queryOptions?.includes(option)) return undefined;
      if (spec.opaqueOptions?.includes(option)) {
        resolved.opaque = `${words[0]!.text} ${option} runs a command the analysis cannot follow`;
        return undefined;
      }
      if (spec.directoryOptions?.includes(option)) resolved.changesDirectory = true;
      const takesValue = spec.valueOptions.includes(option) || spec.directoryOptions?.includes(option);
      index += takesValue && !inlineValue ? 2 : 1;
      if (spec.optionsChangeCommand) cleanlyPeeled = false;
      continue;
    }
    if (spec.acceptsAssignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) {
      const equals = value.indexOf("=");
      resolved.assignments.push({ name: value.slice(0, equals), value: value.slice(equals + 1), text: value });
      cleanlyPeeled = false;
      index += 1;
      continue;
    }
    if (operands > 0) {
      operands -= 1;
      index += 1;
      continue;
    }
    break;
  }
  if (index >= words.length) return undefined;
  if (spec.privileged) resolved.privileged = true;
  if (spec.appendsArguments) resolved.appendsArguments = true;
  return { rest: words.slice(index), cleanlyPeeled };
}
