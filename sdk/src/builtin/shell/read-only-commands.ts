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

/**
 * A version query, with the exact spelling each program gives it: `bash -v` and `ruby -v` run the
 * script on stdin, and `make version` or `python3 version` run a file or target named "version".
 */
const versionQuery = (spellings: string[]): ReadOnlyCheck => (args) =>
  args.length === 1 && spellings.includes(args[0]!.value ?? "") ? undefined : `only ${spellings.join(" or ")} is read-only`;

const LONG_VERSION = ["--version"];
const VERSION_QUERIES: Record<string, string[]> = {
  node: ["--version", "-v"], python: ["--version", "-V"], python3: ["--version", "-V"], ruby: LONG_VERSION, perl: ["--version", "-v"],
  php: ["--version", "-v"], java: ["--version", "-version"], javac: ["--version", "-version"], rustc: ["--version", "-V"], deno: ["--version", "-V"],
  bun: ["--version", "-v"], tsc: ["--version", "-v"], gcc: LONG_VERSION, "g++": LONG_VERSION, clang: LONG_VERSION, make: ["--version", "-v"],
  cmake: LONG_VERSION, terraform: ["--version", "-version", "-v", "version"], bash: LONG_VERSION, zsh: ["--version"], uv: ["--version", "-V"],
  curl: ["--version", "-V"], wget: ["--version", "-V"], rustup: ["--version", "-V"],
};

/** `printenv` alone, `env` alone and names that look like credentials print secrets. */
export const SECRET_NAME = /SECRET|TOKEN|PASSW(OR)?D|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH|COOKIE|SESSION|DATABASE_URL|_DSN$|(^|_)PAT($|_)/i;

const PRINTENV: ReadOnlyCheck = (args) => {
  const names = operands(args);
  if (names.length === 0) return "printing the whole environment shows its credentials";
  return names.some((word) => word.value === undefined || SECRET_NAME.test(word.value)) ? "the variable may hold a credential" : undefined;
};

/** BSD-style `ps e` / `ps auxe` print every process's environment (`-o etime` and other option values are fine). */
const PS_VALUE_OPTIONS = ["-o", "-O", "-p", "-q", "-u", "-U", "-C", "-G", "-g", "-t", "-s", "--sort", "--format", "--pid", "--ppid", "--user", "--User", "--group", "--Group", "--tty", "--sid"];
const PS: ReadOnlyCheck = (args) =>
  args.some((word) => word.value === undefined) || operands(args, PS_VALUE_OPTIONS).some((word) => /^[A-Za-z]*e[A-Za-z]*$/.test(word.value!)) ? "ps e shows the environment of every process" : undefined;

/** Local databases only: `getent shadow` reads password hashes, `getent hosts` asks DNS. */
const GETENT_DATABASES = new Set(["passwd", "group", "services", "protocols", "shells", "rpc", "aliases"]);
const GETENT: ReadOnlyCheck = (args) => {
  const database = operands(args)[0];
  return database?.value !== undefined && GETENT_DATABASES.has(database.value) && !args.some((word) => word.value === undefined) ? undefined : "only the local passwd, group and service databases are read-only";
};

/**
 * `printf -v NAME` assigns a variable (PATH, or an array element whose subscript runs code). The
 * builtin reads options only before the format, so only a first word that is or may be `-v` counts.
 */
const PRINTF: ReadOnlyCheck = (args) => {
  const first = args[0]?.value === "--" ? undefined : args[0];
  return first && (mayBecomeOneOf(first, ["-v"]) || /^-[A-Za-z]*v/.test(first.value ?? "")) ? "printf -v assigns a variable" : undefined;
};

/** `test -v 'a[$(id)]'` evaluates the subscript, running the substitution: only plain names pass. */
const TEST: ReadOnlyCheck = (args) => {
  const index = args.findIndex((word) => word.value === "-v");
  if (index < 0) return undefined;
  const name = args[index + 1]?.value;
  return name !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? undefined : "test -v evaluates an array subscript";
};

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

/** awk options that take no value and neither write files nor load code. */
const AWK_FLAGS = new Set([
  "-b", "-c", "-P", "-r", "-S", "-n", "-N", "-s", "-O", "-t", "-M", "-V", "--characters-as-bytes", "--traditional", "--posix",
  "--re-interval", "--sandbox", "--non-decimal-data", "--use-lc-numeric", "--no-optimize", "--optimize", "--lint-old", "--bignum", "--version",
]);

/**
 * awk programs may call system(), pipe to commands, read files with getline or write them with
 * `print > "f"`; options may load code (`-f`, `-i`, `-l`, `-W exec`) or write dumps and profiles
 * (`-d`, `-p`, `-o`). Only listed options pass, and every program given (`-e`/`--source` too) is checked.
 */
const AWK: ReadOnlyCheck = (args) => {
  if (args.some((word) => word.value === undefined)) return "an argument only known at run time";
  const programs: string[] = [];
  let index = 0;
  for (; index < args.length; index += 1) {
    const value = args[index]!.value!;
    if (value === "--") {
      index += 1;
      break;
    }
    if (!value.startsWith("-") || value === "-") break;
    if (["-F", "-v", "--field-separator", "--assign"].includes(value)) index += 1;
    else if (/^-[Fv].|^--(field-separator|assign)=/.test(value) || AWK_FLAGS.has(value)) continue;
    else if (value === "-e" || value === "--source") programs.push(args[++index]?.value ?? "");
    else if (value.startsWith("--source=")) programs.push(value.slice("--source=".length));
    else return `awk ${value} loads program text, writes a file or is not understood`;
  }
  if (programs.length === 0) {
    if (index >= args.length) return "no awk program";
    programs.push(args[index]!.value!);
  }
  for (const program of programs) {
    const problem = awkProgramProblem(program);
    if (problem) return problem;
  }
  return undefined;
};

/**
 * Judged on the raw text, strings and regular expressions included: a `"` inside `/"/` would
 * otherwise hide what follows. `||` and comparisons outside print statements are fine.
 */
function awkProgramProblem(program: string): string | undefined {
  if (/\b(system|getline)\b|@/.test(program)) return "the awk program runs commands or reads other files";
  if (PRINTS_ENVIRONMENT.test(program)) return "the awk program reads the environment";
  if (/(^|[^|])\|(?!\|)/.test(program)) return "the awk program pipes to or from a command";
  const writes = program.split(/[;{}\n]/).some((statement) => /\bprintf?\b.*>(?!=)/.test(statement));
  return writes ? "the awk program redirects output to a file" : undefined;
}

const DATE: ReadOnlyCheck = (args) => {
  if (args.some(mayBecomeOption)) return "an argument only known at run time";
  if (hasOption(args, ["-s", "--set"])) return "date -s sets the clock";
  return operands(args, ["-d", "--date", "-r", "--reference", "-f", "--file"]).some((word) => !word.value!.startsWith("+")) ? "a date operand sets the clock" : undefined;
};

const HOSTNAME: ReadOnlyCheck = (args) =>
  args.some(mayBecomeOption) || hasOption(args, ["-F", "--file", "-b", "--boot"]) || operands(args).length > 0 ? "hostname with an operand sets the host name" : undefined;

/**
 * `jq -n env`, `jq '$ENV'`, yq's `env(X)`/`strenv(X)` and awk's `ENVIRON` print environment
 * variables, which may hold credentials (as `printenv` alone does). A field named `.env` is fine.
 */
const PRINTS_ENVIRONMENT = /(^|[^.\w$])(env|strenv)\b|\$ENV\b|\bENVIRON\b/;

/** jq `import`/`include` and yq `load*()` read files the command line does not name. */
const LOADS_FILES = /\b(import|include|load\w*)\b/;

const YQ = withoutOptions(["-i", "--inplace", "--in-place", "-s", "--split-exp"]);

const PAGER: ReadOnlyCheck = (args) => {
  if (args.some((word) => word.value === undefined || word.value.startsWith("+"))) return "pager commands given with +";
  // A lesskey source can set LESSOPEN, which runs a command on every file.
  return withoutOptions(["-o", "-O", "-k", "--log-file", "--LOG-FILE", "--lesskey-file", "--lesskey-src", "--lesskey-content"])(args);
};

const NPM = onlySubcommands([["list"], ["ls"], ["ll"], ["la"], ["view"], ["info"], ["show"], ["outdated"], ["root"], ["prefix"], ["explain"], ["why"], ["--version"], ["-v"], ["config", "get"], ["config", "list"]]);

const CHECKS: Record<string, ReadOnlyCheck> = {
  ...Object.fromEntries(
    [
      "cat", "head", "tail", "wc", "ls", "dir", "vdir", "pwd", "echo", "true", "false", ":", "stat", "which", "whereis",
      "type", "whoami", "id", "groups", "uname", "arch", "nproc", "cut", "tr", "nl", "paste", "rev", "seq", "tac", "basename",
      "dirname", "realpath", "readlink", "du", "df", "cmp", "comm", "diff", "column", "fold", "fmt", "expand", "unexpand", "strings",
      "od", "hexdump", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "md5sum", "b2sum", "cksum", "sum", "grep",
      "egrep", "fgrep", "zcat", "zgrep", "bzcat", "xzcat", "expr", "uptime", "free", "w", "who", "pgrep",
      "locale", "getconf", "tty", "cd", "sleep", "lsof", "lsblk", "cal", "look", "join", "numfmt", "tsort", "yes", "pstree", "ss", "netstat",
      "lscpu", "lsmod", "vmstat", "iostat", "last", "exa", "eza",
    ].map((name) => [name, ANY_ARGUMENTS] as const),
  ),
  find: withoutOptions(
    ["-delete", "-exec", "-execdir", "-ok", "-okdir", "-fls", "-fprint", "-fprint0", "-fprintf"],
    ["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname", "-newer", "-samefile", "-user", "-group"],
  ),
  fd: withoutOptions(["-x", "--exec", "-X", "--exec-batch"]),
  rg: withoutOptions(["--pre", "-z", "--search-zip", "--hostname-bin"]),
  ag: withoutOptions(["--pager"]),
  ack: withoutOptions(["--pager", "--output", "--regex"]),
  tree: withoutOptions(["-o", "-R"]),
  sort: withoutOptions(["-o", "--output", "--compress-program", "--files0-from"]),
  ss: withoutOptions(["-K", "--kill"]),
  jq: (args) => (args.some((word) => word.value === undefined || PRINTS_ENVIRONMENT.test(word.value) || LOADS_FILES.test(word.value)) ? "the jq program reads the environment or other files" : undefined),
  base64: withoutOptions(["-o", "--output"]),
  file: withoutOptions(["-C", "--compile"]),
  man: withoutOptions(["-P", "--pager", "-H", "--html", "-X", "--gxditview", "-Z", "--ditroff", "-t", "--troff", "-C", "--config-file"]),
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
  systemctl: onlySubcommands([["status"], ["is-active"], ["is-enabled"], ["is-failed"], ["list-units"], ["list-unit-files"], ["show"], ["cat"]], ["-H", "--host", "-M", "--machine"]),
  journalctl: withoutOptions(["--cursor-file", "-M", "--machine", "--vacuum-size", "--vacuum-time", "--vacuum-files", "--rotate", "--flush", "--sync", "--relinquish-var", "--smart-relinquish-var", "--setup-keys", "--update-catalog"]),
  bat: withoutOptions(["--pager"]),
  yq: (args) => (args.some((word) => word.value === undefined || PRINTS_ENVIRONMENT.test(word.value) || LOADS_FILES.test(word.value)) ? "the yq expression reads the environment or other files" : YQ(args)),
  gh: onlySubcommands([["repo", "view"], ["issue", "list"], ["issue", "view"], ["pr", "list"], ["pr", "view"], ["pr", "status"], ["pr", "diff"], ["pr", "checks"], ["status"], ["run", "list"], ["run", "view"]], ["-w", "--web"]),
  npm: (args) => (args.some((word) => SECRET_NAME.test(word.value ?? "")) ? "the setting may hold a credential" : NPM(args)),
  pip: onlySubcommands([["list"], ["show"], ["freeze"], ["check"], ["--version"], ["-V"]]),
  pip3: onlySubcommands([["list"], ["show"], ["freeze"], ["check"], ["--version"], ["-V"]]),
  cargo: onlySubcommands([["--version"], ["-V"]]),
  go: onlySubcommands([["version"], ["env"]], ["-w", "-u"]),
  // `--server` sends the kubeconfig's credentials elsewhere; `--kubeconfig` may name an exec plugin; `-k` builds with kustomize.
  kubectl: (args) =>
    args.some((word) => /(^|,)secrets?(\/|,|$)/.test(word.value ?? ""))
      ? "kubectl shows secrets"
      : onlySubcommands([["get"], ["describe"], ["logs"], ["version"], ["config", "view"]], ["--raw", "--server", "-s", "--kubeconfig", "-k", "--kustomize"])(args),
  ...Object.fromEntries(Object.entries(VERSION_QUERIES).map(([name, spellings]) => [name, versionQuery(spellings)] as const)),
  printenv: PRINTENV,
  ps: PS,
  getent: GETENT,
  printf: PRINTF,
  test: TEST,
  "[": TEST,
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
  const check = CHECKS[name];
  if (!check) return `${name} is not a known read-only command`;
  if (command.appendsArguments && check !== ANY_ARGUMENTS) return `xargs may append options to ${name}`;
  return check(command.args);
}
