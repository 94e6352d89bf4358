import { hasOption, mayBecomeOneOf, mayBecomeOption, operands } from "./command-arguments.js";
import type { ResolvedCommand } from "./command-wrappers.js";
import { gitReadOnlyProblem } from "./git-read-only.js";
import { parseSedArguments, sedScriptProblem } from "./sed-script.js";
import type { ShellWord } from "./shell-word.js";

/** Undefined when the arguments keep the command read-only; otherwise why they do not. */
type ReadOnlyCheck = (args: ShellWord[]) => string | undefined;

/** Commands with no option that writes, deletes or runs anything: any arguments are fine. */
const ANY_ARGUMENTS: ReadOnlyCheck = () => undefined;

/**
 * Commands that are read-only unless given one of these options (or a word that may expand into
 * one). The values of `valueOptions` are skipped, so `find -name '-delete'` stays read-only.
 */
const withoutOptions = (forbidden: string[], valueOptions: string[] = []): ReadOnlyCheck => (args) => {
  if (args.some((word) => mayBecomeOneOf(word, forbidden))) return "an argument only known at run time could be an option";
  const options = args.filter((_, index) => !valueOptions.includes(args[index - 1]?.value ?? ""));
  return hasOption(options, forbidden) ? `the option ${forbidden.filter((option) => hasOption(options, [option])).join("/")} writes files or runs programs` : undefined;
};

/** `uniq in out`, `xxd in out` write their second operand; a glob may expand into two. */
const atMostOneOperand = (valueOptions: string[]): ReadOnlyCheck => (args) => {
  if (args.some((word) => word.value === undefined || word.expands)) return "an argument that may expand into an output file";
  return operands(args, valueOptions).length > 1 ? "a second operand is an output file" : undefined;
};

const onlySubcommands = (allowed: string[][], forbidden: string[] = []): ReadOnlyCheck => (args) => {
  if (args.some(mayBecomeOption)) return "an argument only known at run time";
  const matches = allowed.some((words) => words.every((word, index) => args[index]?.value === word));
  if (!matches) return `only ${allowed.map((words) => words.join(" ")).join(", ")} are read-only`;
  return hasOption(args, forbidden) ? "an option that opens a browser or writes" : undefined;
};

const VERSION_QUERY: ReadOnlyCheck = (args) =>
  args.length === 1 && ["--version", "-version", "-v", "-V", "version"].includes(args[0]!.value ?? "") ? undefined : "only a version query is read-only";

const SED: ReadOnlyCheck = (args) => {
  const sed = parseSedArguments(args);
  if (sed.problem) return sed.problem;
  if (sed.inPlace) return "sed -i edits files";
  for (const script of sed.scripts) {
    const problem = sedScriptProblem(script);
    if (problem) return problem;
  }
  return undefined;
};

/** awk programs may call system(), pipe to commands or redirect output; only plain programs pass. */
const AWK: ReadOnlyCheck = (args) => {
  if (args.some((word) => word.value === undefined)) return "an argument only known at run time";
  let program: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const value = args[index]!.value!;
    if (["-F", "-v", "--field-separator", "--assign"].includes(value)) index += 1;
    else if (/^-[fEil]|^--(file|exec|include|load|source)/.test(value)) return `awk ${value} loads program text the analysis cannot see`;
    else if (!value.startsWith("-")) {
      program = value;
      break;
    }
  }
  if (program === undefined) return "no awk program";
  return awkProgramProblem(program);
};

/**
 * awk runs commands through system(), `| "cmd"`, `"cmd" |` and writes files with `print > "f"`;
 * string literals are ignored, `||` and comparisons such as `$3 > 10` outside print are fine.
 */
function awkProgramProblem(program: string): string | undefined {
  const code = program.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (/\bsystem\b|@/.test(code)) return "the awk program runs commands";
  if (/(^|[^|])\|(?!\|)/.test(code)) return "the awk program pipes to or from a command";
  const writes = code.split(/[;{}\n]/).some((statement) => /\bprintf?\b.*>(?!=)/.test(statement));
  return writes ? "the awk program redirects output to a file" : undefined;
}

const DATE: ReadOnlyCheck = (args) => {
  if (args.some(mayBecomeOption)) return "an argument only known at run time";
  if (hasOption(args, ["-s", "--set"])) return "date -s sets the clock";
  return operands(args, ["-d", "--date", "-r", "--reference", "-f", "--file"]).some((word) => !word.value!.startsWith("+")) ? "a date operand sets the clock" : undefined;
};

const HOSTNAME: ReadOnlyCheck = (args) =>
  args.some(mayBecomeOption) || hasOption(args, ["-F", "--file", "-b", "--boot"]) || operands(args).length > 0 ? "hostname with an operand sets the host name" : undefined;

const PAGER: ReadOnlyCheck = (args) => {
  if (args.some((word) => word.value === undefined || word.value.startsWith("+"))) return "pager commands given with +";
  return withoutOptions(["-o", "-O", "-k", "--log-file", "--LOG-FILE", "--lesskey-file"])(args);
};

const CHECKS: Record<string, ReadOnlyCheck> = {
  ...Object.fromEntries(
    [
      "cat", "head", "tail", "wc", "ls", "dir", "vdir", "pwd", "echo", "printf", "true", "false", ":", "stat", "which", "whereis",
      "type", "whoami", "id", "groups", "uname", "arch", "nproc", "cut", "tr", "nl", "paste", "rev", "seq", "tac", "basename",
      "dirname", "realpath", "readlink", "du", "df", "cmp", "comm", "diff", "column", "fold", "fmt", "expand", "unexpand", "strings",
      "od", "hexdump", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "md5sum", "b2sum", "cksum", "sum", "grep",
      "egrep", "fgrep", "zcat", "zgrep", "bzcat", "xzcat", "jq", "test", "[", "expr", "uptime", "free", "w", "who", "ps", "pgrep",
      "locale", "getconf", "tty", "cd", "sleep", "lsof", "lsblk", "cal", "look", "join", "numfmt", "tsort", "yes", "pstree", "printenv", "ss", "netstat",
      "lscpu", "lsmod", "vmstat", "iostat", "getent", "last", "exa", "eza", "sha1sum",
    ].map((name) => [name, ANY_ARGUMENTS] as const),
  ),
  find: withoutOptions(
    ["-delete", "-exec", "-execdir", "-ok", "-okdir", "-fls", "-fprint", "-fprint0", "-fprintf"],
    ["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname", "-newer", "-samefile", "-user", "-group"],
  ),
  fd: withoutOptions(["-x", "--exec", "-X", "--exec-batch"]),
  rg: withoutOptions(["--pre", "-z", "--search-zip", "--hostname-bin"]),
  ag: withoutOptions(["--pager"]),
  ack: withoutOptions(["--pager"]),
  tree: withoutOptions(["-o", "-R"]),
  sort: withoutOptions(["-o", "--output", "--compress-program"]),
  base64: withoutOptions(["-o", "--output"]),
  file: withoutOptions(["-C", "--compile"]),
  man: withoutOptions(["-P", "--pager", "-H", "--html", "-X", "--gxditview", "-Z", "--ditroff", "-t", "--troff"]),
  less: PAGER,
  more: PAGER,
  uniq: atMostOneOperand(["-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars"]),
  xxd: atMostOneOperand(["-c", "-g", "-l", "-s", "-o", "-n", "-cols", "-len", "-seek"]),
  date: DATE,
  hostname: HOSTNAME,
  sed: SED,
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  nawk: AWK,
  git: gitReadOnlyProblem,
  docker: onlySubcommands([["ps"], ["images"], ["inspect"], ["logs"], ["version"], ["info"], ["--version"], ["container", "ls"], ["image", "ls"], ["compose", "ps"], ["compose", "logs"]]),
  systemctl: onlySubcommands([["status"], ["is-active"], ["is-enabled"], ["is-failed"], ["list-units"], ["list-unit-files"], ["show"], ["cat"]]),
  journalctl: withoutOptions(["--vacuum-size", "--vacuum-time", "--vacuum-files", "--rotate", "--flush", "--sync", "--relinquish-var", "--smart-relinquish-var", "--setup-keys", "--update-catalog"]),
  bat: withoutOptions(["--pager"]),
  yq: withoutOptions(["-i", "--inplace"]),
  gh: onlySubcommands([["repo", "view"], ["issue", "list"], ["issue", "view"], ["pr", "list"], ["pr", "view"], ["pr", "status"], ["pr", "diff"], ["pr", "checks"], ["status"], ["run", "list"], ["run", "view"]], ["-w", "--web"]),
  npm: onlySubcommands([["list"], ["ls"], ["ll"], ["la"], ["view"], ["info"], ["show"], ["outdated"], ["root"], ["prefix"], ["explain"], ["why"], ["--version"], ["-v"], ["config", "get"], ["config", "list"]]),
  pnpm: onlySubcommands([["list"], ["ls"], ["why"], ["outdated"], ["--version"]]),
  yarn: onlySubcommands([["list"], ["why"], ["info"], ["--version"]]),
  pip: onlySubcommands([["list"], ["show"], ["freeze"], ["check"], ["--version"], ["-V"]]),
  pip3: onlySubcommands([["list"], ["show"], ["freeze"], ["check"], ["--version"], ["-V"]]),
  cargo: onlySubcommands([["--version"], ["-V"], ["tree"], ["metadata"]]),
  go: onlySubcommands([["version"], ["env"], ["list"]]),
  kubectl: onlySubcommands([["get"], ["describe"], ["logs"], ["version"], ["config", "view"]]),
  ...Object.fromEntries(
    ["node", "python", "python3", "ruby", "perl", "php", "java", "javac", "rustc", "deno", "bun", "tsc", "gcc", "g++", "clang", "make", "cmake", "terraform", "bash", "zsh", "uv", "curl", "wget", "rustup"].map(
      (name) => [name, VERSION_QUERY] as const,
    ),
  ),
};

/**
 * Undefined when the resolved command only reads; otherwise why not. Wrappers must be benign
 * (`sudo` never is), and `xargs` may append any words, so only commands whose options are all
 * harmless can follow it.
 */
export function readOnlyProblem(command: ResolvedCommand): string | undefined {
  const name = command.name;
  if (name === undefined) return command.opaque ?? "the command name is only known at run time";
  if (command.opaque) return command.opaque;
  if (command.privileged) return `${name} runs with elevated privileges`;
  if (command.assignments.length > 0) return `environment assignments (${command.assignments.map((a) => a.name).join(", ")}) change how the command runs`;
  const wrapper = command.wrappers.find((entry) => entry === "coproc");
  if (wrapper) return `${wrapper} is not read-only`;
  if (name === "command" && hasOption(command.args, ["-v", "-V"])) return undefined;
  // `env` alone prints the environment, like printenv; with a command it is a wrapper (peeled above).
  if (name === "env" && command.args.length === 0) return undefined;
  const check = CHECKS[name];
  if (!check) return `${name} is not a known read-only command`;
  if (command.appendsArguments && check !== ANY_ARGUMENTS) return `xargs may append options to ${name}`;
  return check(command.args);
}
