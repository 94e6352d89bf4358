import {
  flag,
  flags,
  forbid,
  optional,
  optionalEach,
  pathValued,
  programSpecs,
  valued,
  valuedEach,
  type ParsedArguments,
  type ProgramSpec,
} from "../command-spec.js";
import { SECRET_VARIABLE_NAME } from "../../secret-variables.js";

/** Programs that print the words they are given or nothing at all: no option of theirs does anything else. */
const PRINTERS: ProgramSpec[] = [
  {
    name: "echo",
    summary: "prints its words",
    anyArguments: true,
    examples: { readOnly: ["echo hello", "echo $((1+2))", "echo $HOME"], notReadOnly: ["echo $GITHUB_TOKEN"] },
  },
  { name: "true", summary: "does nothing", anyArguments: true },
  { name: "false", summary: "does nothing", anyArguments: true },
  { name: ":", summary: "does nothing", anyArguments: true },
  { name: "yes", summary: "prints a word repeatedly", anyArguments: true },
  { name: "expr", summary: "evaluates an expression", anyArguments: true },
];

/**
 * `printf -v NAME` assigns a variable (PATH, or an array element whose subscript runs code); the builtin
 * reads options only before the format.
 */
const PRINTF: ProgramSpec = {
  name: "printf",
  summary: "prints formatted text",
  permute: false,
  options: [],
  forbidden: forbid("-v", "assigns the output to a shell variable"),
  operands: { role: "text" },
  examples: { readOnly: ["printf '%s\\n' a b", "printf -- -x"], notReadOnly: ["printf -v PATH x", "printf -vx y"] },
};

/**
 * Hardware and kernel state. Each lists the options that only choose what is printed: `nvidia-smi`
 * also sets clocks, power limits and persistence (`-pm`, `-pl`, `-r`) and writes `-f FILE`,
 * `lspci -q` asks DNS about unknown devices, `lscpu -s`/`lsusb -D`/`lspci -F` read a file or tree.
 */
const HARDWARE: ProgramSpec[] = [
  {
    name: "lsblk",
    summary: "lists block devices",
    options: [
      ...flags(
        "-a -b -d -D -f -J -l -m -n -O -p -P -r -S -t -T -z -A -E -M --all --bytes --nodeps --discard --fs --json " +
          "--list --perms --noheadings --output-all --paths --pairs --raw --scsi --topology --zoned --merge --ascii",
      ),
      ...valuedEach("-o --output -e --exclude -I --include -x --sort -w --width -Q --filter"),
    ],
    operands: { role: "text" },
    examples: { readOnly: ["lsblk -f", "lsblk -d -o NAME,SIZE"], notReadOnly: ["lsblk --sysroot /mnt"] },
  },
  {
    name: "lscpu",
    summary: "prints the CPU architecture",
    options: [
      ...flags("-a -b -c -J -x -y -B --all --online --offline --json --hex --physical --bytes"),
      ...optionalEach("-e --extended -p --parse"),
    ],
    forbidden: forbid("-s --sysroot", "reads the CPU data of another root"),
    operands: { max: 0 },
  },
  { name: "lsmod", summary: "lists kernel modules", options: [], operands: { max: 0 } },
  {
    name: "vmstat",
    summary: "prints memory and CPU statistics",
    options: [
      ...flags("-a -f -m -n -s -d -D -t -w --active --forks --slabs --one-header --stats --disk --disk-sum --timestamp --wide"),
      ...valuedEach("-p --partition -S --unit"),
    ],
    operands: { role: "text", max: 2 },
  },
  {
    name: "iostat",
    summary: "prints I/O statistics",
    options: [...flags("-c -d -h -k -m -N -s -t -x -y -z -H --compact --human --pretty"), ...valuedEach("-j -o -p -g --dec")],
    operands: { role: "text" },
  },
  {
    name: "mpstat",
    summary: "prints per-CPU statistics",
    options: [...flags("-A -H -n -u -T"), ...valuedEach("-I -N -P -o")],
    operands: { role: "text", max: 2 },
  },
  {
    name: "lspci",
    summary: "lists PCI devices",
    options: [...flags("-m -t -v -k -x -b -D -P -n -M"), ...valuedEach("-s -d -A -O")],
    forbidden: [
      ...forbid("-q -Q", "asks DNS about devices missing from the local ID database"),
      ...forbid("-F -i -p", "reads a device dump or ID database file the command names"),
      ...forbid("-H", "accesses the hardware directly"),
    ],
    operands: { max: 0 },
    examples: { readOnly: ["lspci -nnk", "lspci -vvv -s 00:02.0"], notReadOnly: ["lspci -q", "lspci -F dump.txt"] },
  },
  {
    name: "lsusb",
    summary: "lists USB devices",
    options: [...flags("-v -t -V --verbose --tree --version"), ...valuedEach("-s -d")],
    forbidden: forbid("-D", "reads the device file the command names"),
    operands: { max: 0 },
  },
  {
    name: "nvidia-smi",
    summary: "prints GPU state (query options only)",
    options: [
      ...flags("-L --list-gpus -q --query -x --xml-format"),
      ...valuedEach("-i --id -d --display --query-gpu --query-compute-apps --format -l --loop"),
    ],
    forbidden: [
      ...forbid("-f --filename", "writes the output to a file"),
      ...forbid(
        "-pm --persistence-mode -pl --power-limit -r --gpu-reset -c --compute-mode " +
          "-e --ecc-config -ac --applications-clocks -lgc --lock-gpu-clocks",
        "changes the GPU's settings",
      ),
    ],
    operands: { max: 0 },
    examples: {
      readOnly: ["nvidia-smi", "nvidia-smi --query-gpu=name,memory.used --format=csv"],
      notReadOnly: ["nvidia-smi -pm 1", "nvidia-smi -f out.txt", "nvidia-smi -pl 100"],
    },
  },
];

/** `test -v 'a[$(id)]'` evaluates the subscript, running the substitution: only plain names pass. */
function testOperandsProblem(parsed: ParsedArguments): string | undefined {
  const words = parsed.operands;
  const index = words.findIndex((word) => word.value === "-v");
  if (index < 0) return undefined;
  const name = words[index + 1]?.value;
  return name !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? undefined : "test -v evaluates an array subscript";
}
/** `[ … ]` alone parses as a test expression, not a command: only `test` has examples here. */
const test = (name: string): ProgramSpec => ({
  name,
  summary: "evaluates a condition",
  anyArguments: true,
  check: testOperandsProblem,
  examples: name === "test" ? { readOnly: ["test -f a.txt"], notReadOnly: ["test -v 'a[$(id)]'"] } : undefined,
});

/** `printenv` alone prints the whole environment; a credential-looking name prints a secret. */
function printenvProblem(parsed: ParsedArguments): string | undefined {
  if (parsed.operands.length === 0) return "printing the whole environment shows its credentials";
  return parsed.operands.some((word) => word.value === undefined || SECRET_VARIABLE_NAME.test(word.value))
    ? "the variable may hold a credential"
    : undefined;
}

/** Local databases only: `getent shadow` reads password hashes, `getent hosts` asks DNS. */
const GETENT_DATABASES = new Set(["passwd", "group", "services", "protocols", "shells", "rpc", "aliases", "ethers", "netgroup"]);

/** BSD-style `ps e` / `ps auxe` print every process's environment. */
const notBsdEnvironment = (value: string) =>
  /^[A-Za-z]*e[A-Za-z]*$/.test(value) ? "ps e shows the environment of every process" : undefined;

/** A date operand other than `+FORMAT` sets the clock. */
const dateFormatOnly = (value: string) => (value.startsWith("+") ? undefined : "a date operand sets the clock");

const firstOperandIn = (allowed: readonly string[], what: string) => (parsed: ParsedArguments) => {
  const first = parsed.operands[0]?.value;
  return first === undefined || allowed.includes(first)
    ? undefined
    : `only ${allowed.map((name) => `${what} ${name}`).join(", ")} are read-only`;
};

export const SYSTEM_INFO = programSpecs([
  ...PRINTERS,
  PRINTF,
  test("test"),
  test("["),
  {
    name: "which",
    summary: "finds programs on PATH",
    operands: { role: "text" },
    options: flags(
      "-a -s --all --skip-alias --skip-functions --skip-dot --skip-tilde --show-dot --show-tilde --read-alias --read-functions",
    ),
  },
  {
    name: "whereis",
    summary: "finds program files",
    operands: { role: "text" },
    options: [...flags("-b -m -s -u -l -f"), ...valuedEach("-B -M -S")],
  },
  { name: "type", summary: "says what a name is", operands: { role: "text" }, options: flags("-a -f -P -p -t") },
  {
    name: "command",
    summary: "with -v or -V: says what a name is",
    operands: { role: "text" },
    options: flags("-v -V -p"),
    check: (parsed) => (parsed.has("-v") || parsed.has("-V") ? undefined : "command without -v runs the command"),
  },
  { name: "whoami", summary: "prints the user name", options: [], operands: { max: 0 } },
  { name: "groups", summary: "prints group memberships", operands: { role: "text" }, options: [] },
  {
    name: "id",
    summary: "prints user and group ids",
    operands: { role: "text" },
    options: flags("-u -g -G -n -r -z -a -Z --user --group --groups --name --real --zero --context"),
  },
  {
    name: "uname",
    summary: "prints system information",
    options: flags(
      "-a -s -n -r -v -m -p -i -o --all --kernel-name --nodename --kernel-release " +
        "--kernel-version --machine --processor --hardware-platform --operating-system",
    ),
    operands: { max: 0 },
  },
  { name: "arch", summary: "prints the machine architecture", options: [], operands: { max: 0 } },
  { name: "nproc", summary: "prints the number of processors", options: [flag("--all"), valued("--ignore")], operands: { max: 0 } },
  { name: "tty", summary: "prints the terminal name", options: flags("-s --silent --quiet"), operands: { max: 0 } },
  { name: "uptime", summary: "prints the uptime", options: flags("-p -s --pretty --since"), operands: { max: 0 } },
  {
    name: "top",
    summary: "top -b (batch mode: no interactive keys, which kill and renice processes)",
    options: [...flags("-b -c -H -i -S -1 -E -e"), ...valuedEach("-n -d -p -u -U -o -w")],
    operands: { max: 0 },
    check: (parsed) => (parsed.has("-b") ? undefined : "interactive top can kill and renice processes"),
    examples: { readOnly: ["top -b -n 1"], notReadOnly: ["top"] },
  },
  {
    name: "ulimit",
    summary: "ulimit -a (prints the limits; a value sets one)",
    options: flags("-a -H -S"),
    operands: { max: 0 },
    check: (parsed) => (parsed.has("-a") ? undefined : "only ulimit -a is read-only"),
    examples: { readOnly: ["ulimit -a", "ulimit -Ha"], notReadOnly: ["ulimit -n 10", "ulimit -c unlimited"] },
  },
  {
    name: "ip",
    summary: "ip addr/link/route/neigh show (iproute2)",
    options: [
      ...flags("-4 -6 -s -d -j -p -o -br -c --brief --json --pretty --oneline --details --stats --color"),
      valued("-f", "--family"),
    ],
    subcommands: (
      [
        ["addr", ["address", "a"]],
        ["link", ["l"]],
        ["route", ["r"]],
        ["neigh", ["neighbour", "n"]],
        ["rule", []],
      ] as const
    ).map(([name, aliases]) => ({
      name,
      aliases: [...aliases],
      summary: `ip ${name} (show only)`,
      bareIsReadOnly: true,
      options: [],
      subcommands: [
        { name: "show", aliases: ["list", "ls", "lst"], summary: `ip ${name} show`, options: [], operands: { role: "text" as const } },
      ],
    })),
    examples: {
      readOnly: ["ip addr", "ip -4 a", "ip route show"],
      notReadOnly: ["ip addr add 10.0.0.1/24 dev eth0", "ip link set eth0 down"],
    },
  },
  {
    name: "free",
    summary: "prints memory use",
    options: [
      ...flags(
        "-b -k -m -g -h -t -w -l -v --bytes --kibi --mebi --gibi --tebi --pebi --kilo " +
          "--mega --giga --tera --peta --human --si --total --wide --lohi --committed",
      ),
      valued("-s", "--seconds"),
      valued("-c", "--count"),
    ],
    operands: { max: 0 },
  },
  {
    name: "w",
    summary: "prints who is logged in",
    operands: { role: "text" },
    options: flags("-h -s -f -i -o -u -p --no-header --short --from --ip-addr --old-style --no-current --pids"),
  },
  {
    name: "who",
    summary: "prints who is logged in",
    operands: { role: "text", max: 2 },
    options: flags(
      "-a -b -d -H -l -m -p -q -r -s -t -u -w -T --all --boot --dead --heading --login " +
        "--lookup --process --count --runlevel --short --time --users --mesg --writable",
    ),
  },
  {
    name: "locale",
    summary: "prints locale settings",
    operands: { role: "text" },
    options: flags("-a -m -v -k -c --all-locales --charmaps --verbose --keyword-name --category-name"),
  },
  { name: "getconf", summary: "prints system configuration values", operands: { role: "text" }, options: [flag("-a"), valued("-v")] },
  { name: "sleep", summary: "waits", operands: { role: "text" }, options: [] },
  {
    name: "cal",
    summary: "prints a calendar",
    operands: { role: "text" },
    options: [
      ...flags("-1 -3 -y -Y -j -s -m -w -v --one --three --year --twelve --julian --sunday --monday --week --vertical"),
      valued("-n", "--months"),
    ],
  },
  {
    name: "seq",
    summary: "prints a sequence of numbers",
    operands: { role: "text" },
    numericOption: true,
    options: [valued("-f", "--format"), valued("-s", "--separator"), flag("-w", "--equal-width")],
  },
  {
    name: "cd",
    summary: "changes the working directory of this shell",
    injectedOptionsHarmless: true,
    operands: { role: "text", max: 1 },
    options: flags("-L -P -e -@"),
  },
  {
    name: "date",
    summary: "prints the date (an operand other than +FORMAT sets the clock)",
    options: [
      flag("-u", "--utc", "--universal"),
      flag("-R", "--rfc-email"),
      optional("-I", "--iso-8601"),
      valued("--rfc-3339"),
      valued("-d", "--date"),
      pathValued("-r", "--reference"),
      pathValued("-f", "--file"),
      flag("--debug"),
    ],
    forbidden: forbid("-s --set", "sets the clock"),
    operands: { role: "text", check: dateFormatOnly },
    examples: {
      readOnly: ["date", "date +%Y-%m-%d", "date -u -d @0"],
      notReadOnly: ["date -s 2020-01-01", "date 0101000020", "date -uf.env"],
    },
  },
  {
    name: "hostname",
    summary: "prints the host name",
    options: flags("-s -f -d -i -I -a -A -y --short --fqdn --long --domain --ip-address --all-ip-addresses --all-fqdns --alias --nis --yp"),
    forbidden: [...forbid("-F --file", "sets the host name from a file"), ...forbid("-b --boot", "sets the host name")],
    operands: { max: 0 },
    examples: { readOnly: ["hostname", "hostname -f"], notReadOnly: ["hostname evil", "hostname -F /tmp/x"] },
  },
  {
    name: "pgrep",
    summary: "finds processes",
    operands: { role: "text" },
    options: [
      ...flags(
        "-l -a -f -x -n -o -c -i -v -w --list-name --list-full --full --exact " +
          "--newest --oldest --count --ignore-case --inverse --lightweight",
      ),
      ...valuedEach(
        "-u -U -g -G -P -s -t -d -F --euid --uid --pgroup --group --parent " +
          "--session --terminal --delimiter --pidfile --older --ns --nslist",
      ),
    ],
  },
  {
    name: "ps",
    summary: "lists processes (BSD-style e shows environments)",
    operands: { role: "text", check: notBsdEnvironment },
    options: [
      ...flags("-e -A -a -d -N -f -F -l -j -H -w -x -L -T -m -y -M -Z -c -h -q --forest --no-headers --headers --cumulative --deselect"),
      ...valuedEach(
        "-u -U -p -C -G -g -t -o -O -s --sort --pid --ppid --user --User --group " +
          "--Group --tty --sid --format --cols --columns --width --rows --lines",
      ),
    ],
    examples: { readOnly: ["ps aux", "ps -ef", "ps -o pid,etime -p 1"], notReadOnly: ["ps auxe", "ps e"] },
  },
  {
    name: "pstree",
    summary: "prints the process tree",
    operands: { role: "text" },
    options: flags(
      "-p -a -u -n -l -h -g -s -A -G -U -c -Z -S -T -t --arguments --ascii --compact-not --show-pgids --highlight-all " +
        "--long --numeric-sort --show-pids --show-parents --uid-changes --unicode --vt100 --thread-names --hide-threads",
    ),
  },
  {
    name: "lsof",
    summary: "lists open files",
    options: [
      ...flags("-t -n -P -l -a -b -w -X -V -U -R -K -N -h"),
      optional("-i"),
      ...valuedEach("-p -u -c -d -g -s -F -r -k -T -D +D +d -E -e"),
    ],
  },
  ...HARDWARE,
  {
    name: "last",
    summary: "prints recent logins",
    operands: { role: "text" },
    options: [
      ...flags("-a -d -F -i -w -x -R --dns --fulltimes --ip --fullnames --system --nohostname"),
      valued("-n", "--limit"),
      pathValued("-f", "--file"),
      valued("-s", "--since"),
      valued("-t", "--until"),
      valued("-p", "--present"),
      valued("--time-format"),
    ],
  },
  {
    name: "ss",
    summary: "lists sockets",
    operands: { role: "text" },
    options: [
      ...flags(
        "-t -u -l -n -p -a -4 -6 -x -s -e -m -o -i -r -H -O -w -d -0 -M -E -Z -z -b -N --tcp --udp --listening " +
          "--numeric --processes --all --unix --summary --extended --memory --options --info --resolve " +
          "--no-header --oneline --raw --dccp --sctp --vsock --tipc --packet --events --context --contexts --bpf",
      ),
      valued("-f", "--family"),
      valued("-A", "--query", "--socket"),
      pathValued("-F", "--filter"),
    ],
    forbidden: [...forbid("-K --kill", "closes sockets"), ...forbid("-D --diag", "writes a dump file")],
  },
  {
    name: "netstat",
    summary: "lists network connections",
    operands: { role: "text" },
    options: [
      ...flags(
        "-t -u -l -n -p -a -r -i -s -e -c -W -g -M -o -x -4 -6 -w --tcp --udp --listening --numeric --program --all " +
          "--route --interfaces --statistics --extend --continuous --wide --groups --masquerade --timers --unix --raw",
      ),
      valued("-A", "--protocol"),
    ],
  },
  {
    name: "printenv",
    summary: "prints named environment variables (never all, never credential-like names)",
    operands: { role: "text" },
    options: [flag("-0", "--null")],
    check: printenvProblem,
    examples: { readOnly: ["printenv HOME"], notReadOnly: ["printenv", "printenv AWS_SECRET_ACCESS_KEY"] },
  },
  {
    name: "getent",
    summary: "prints local passwd, group and service entries",
    operands: { role: "text" },
    options: [valued("-s", "--service"), flag("-i", "--no-idn")],
    check: (parsed) => {
      const database = parsed.operands[0]?.value;
      return database !== undefined && GETENT_DATABASES.has(database)
        ? undefined
        : "only the local passwd, group and service databases are read-only";
    },
    examples: { readOnly: ["getent passwd root"], notReadOnly: ["getent shadow", "getent hosts example.com"] },
  },
  {
    name: "systemctl",
    summary: "prints unit state (status, show, list-*, is-*, cat)",
    bareIsReadOnly: true,
    operands: { role: "text" },
    options: [
      ...flags(
        "--no-pager -l --full -a --all --user --system --no-legend --plain -q --quiet " +
          "-r --recursive --value --reverse --before --after --failed --show-types",
      ),
      valued("-t", "--type"),
      valued("--state"),
      valued("-n", "--lines"),
      valued("-o", "--output"),
      valued("-p", "--property"),
      valued("-P"),
    ],
    forbidden: forbid("-H --host -M --machine", "connects to another machine"),
    check: firstOperandIn(
      [
        "status",
        "is-active",
        "is-enabled",
        "is-failed",
        "list-units",
        "list-unit-files",
        "list-timers",
        "list-sockets",
        "list-dependencies",
        "show",
        "cat",
      ],
      "systemctl",
    ),
    examples: {
      readOnly: ["systemctl status nginx", "systemctl list-units --type=service"],
      notReadOnly: ["systemctl restart nginx", "systemctl -H host status"],
    },
  },
  {
    name: "journalctl",
    summary: "prints the system journal",
    operands: { role: "text" },
    options: [
      ...flags(
        "-f -e -r -k -x -q -a -l -m -N --follow --pager-end --reverse --dmesg --catalog " +
          "--quiet --no-pager --all --utc --user --system --list-boots --disk-usage " +
          "--no-hostname --no-full --full --merge --fields --header --verify --show-cursor",
      ),
      optional("-b", "--boot"),
      ...valuedEach(
        "-u --unit --user-unit -n --lines -o --output -p --priority -S --since -U --until -g --grep -t --identifier " +
          "-F --field --output-fields --facility --case-sensitive --after-cursor --cursor -I --invocation --namespace",
      ),
      pathValued("-D", "--directory"),
      pathValued("--file"),
      pathValued("--root"),
      pathValued("--image"),
    ],
    forbidden: [
      ...forbid("--cursor-file", "writes a cursor file"),
      ...forbid("-M --machine", "reads another machine's journal"),
      ...forbid(
        "--vacuum-size --vacuum-time --vacuum-files --rotate --flush --sync " +
          "--relinquish-var --smart-relinquish-var --setup-keys --update-catalog",
        "changes the journal",
      ),
    ],
  },
  {
    name: "man",
    summary: "shows manual pages",
    operands: { role: "text" },
    options: [
      ...flags(
        "-k -f -a -w -W -u -i -I --apropos --whatis --all --where --path --where-cat --catman --regex " +
          "--wildcard --names-only --no-subpages --ascii --no-hyphenation --no-justification -7 -E",
      ),
      ...valuedEach("-s -S -L -M -m -e --sections --locale --manpath --systems --extension"),
      pathValued("-l", "--local-file"),
    ],
    forbidden: [
      ...forbid("-P --pager", "runs the named pager"),
      ...forbid("-H --html -X --gxditview -Z --ditroff -t --troff -T --troff-device", "runs a formatter or browser"),
      ...forbid("-C --config-file", "loads another configuration"),
    ],
  },
]);
