import {
  flag,
  flags,
  forbid,
  optional,
  pathValued,
  programSpecs,
  valued,
  valuedEach,
  withEffect,
  type OptionSpec,
  type ProgramSpec,
} from "../command-spec.js";

const PATTERN_OPTIONS = ["-e", "--regexp", "-f", "--file"];

/** `grep -d recurse` and `--directories=recurse` read whole trees: the recursive checks then apply. */
const GREP_DIRECTORIES: OptionSpec = {
  names: ["-d", "--directories"],
  value: "required",
  check: (value) => (["read", "skip", "recurse"].includes(value) ? undefined : `${value} is not a directories action`),
};

const GREP_OPTIONS: OptionSpec[] = [
  ...flags(
    "-E -F -G -P -i -y -v -w -x -c -o -q -s -b -H -h -n -T -Z -z -a -I -U --null-data --extended-regexp " +
      "--fixed-strings --basic-regexp --perl-regexp --ignore-case --no-ignore-case --invert-match --word-regexp " +
      "--line-regexp --count --only-matching --quiet --silent --no-messages --byte-offset --with-filename " +
      "--no-filename --line-number --initial-tab --null --text --line-buffered --no-group-separator",
  ),
  withEffect(flag("-l", "--files-with-matches"), "lists-names"),
  withEffect(flag("-L", "--files-without-match"), "lists-names"),
  withEffect(flag("-r", "--recursive"), "recursive"),
  withEffect(flag("-R", "--dereference-recursive"), "follows-links"),
  valued("-e", "--regexp"),
  pathValued("-f", "--file"),
  valued("-m", "--max-count"),
  valued("-A", "--after-context"),
  valued("-B", "--before-context"),
  valued("-C", "--context"),
  GREP_DIRECTORIES,
  valued("-D", "--devices"),
  valued("--include"),
  valued("--exclude"),
  valued("--exclude-dir"),
  pathValued("--exclude-from"),
  valued("--label"),
  optional("--color"),
  optional("--colour"),
  valued("--binary-files"),
  valued("--group-separator"),
];
const grep = (name: string): ProgramSpec => ({
  name,
  summary: "searches files for a pattern",
  numericOption: true,
  options: GREP_OPTIONS,
  operands: { leading: ["text"], unlessOptions: PATTERN_OPTIONS },
  examples: {
    readOnly: [`${name} -rn TODO src`, `${name} -e x -e y a.txt`],
    notReadOnly: [`${name} -r KEY ~`, `${name} -f ~/.ssh/id_rsa a`],
  },
});

/** ripgrep counts `-u`: once skips ignore files, twice also reads hidden files, three times binary files too. */
const RG_OPTIONS: OptionSpec[] = [
  ...flags(
    "-i -S -s -F -w -x -v -c -n -N -H -I -o -p -q -a -U -P -0 -b --ignore-case --smart-case --case-sensitive " +
      "--fixed-strings --word-regexp --line-regexp --invert-match --count --count-matches --line-number " +
      "--no-line-number --with-filename --no-filename --only-matching --pretty --quiet --text --multiline " +
      "--multiline-dotall --pcre2 --null --null-data --byte-offset --json --vimgrep --column --no-column --heading " +
      "--no-heading --stats --trim --passthru --crlf --binary --no-messages --one-file-system --no-config " +
      "--type-list --no-unicode --no-pcre2-unicode --block-buffered --line-buffered --no-require-git --sort-files",
  ),
  withEffect(flag("-l", "--files-with-matches"), "lists-names"),
  withEffect(flag("--files-without-match"), "lists-names"),
  withEffect(flag("--files"), "lists-names"),
  withEffect(flag("-L", "--follow"), "follows-links"),
  withEffect(flag("--hidden"), "hidden"),
  withEffect(flag("-."), "hidden"),
  withEffect(flag("-u", "--unrestricted"), "no-ignore"),
  ...[
    "--no-ignore",
    "--no-ignore-vcs",
    "--no-ignore-parent",
    "--no-ignore-dot",
    "--no-ignore-global",
    "--no-ignore-exclude",
    "--no-ignore-files",
  ].map((name) => withEffect(flag(name), "no-ignore")),
  valued("-e", "--regexp"),
  pathValued("-f", "--file"),
  valued("-g", "--glob"),
  valued("--iglob"),
  valued("-t", "--type"),
  valued("-T", "--type-not"),
  valued("--type-add"),
  valued("--type-clear"),
  valued("-m", "--max-count"),
  valued("-A", "--after-context"),
  valued("-B", "--before-context"),
  valued("-C", "--context"),
  valued("-r", "--replace"),
  valued("-j", "--threads"),
  valued("-M", "--max-columns"),
  valued("-d", "--max-depth"),
  valued("--maxdepth"),
  valued("--max-filesize"),
  valued("--sort"),
  valued("--sortr"),
  valued("--color"),
  valued("--colors"),
  valued("-E", "--encoding"),
  valued("--engine"),
  valued("--context-separator"),
  valued("--field-match-separator"),
  valued("--field-context-separator"),
  valued("--path-separator"),
  pathValued("--ignore-file"),
  valued("--dfa-size-limit"),
  valued("--regex-size-limit"),
  valued("--hyperlink-format"),
];

/** `find` reads names (and metadata) below its start points; every action that writes, runs or prints into a file is forbidden. */
const FIND_OPTIONS: OptionSpec[] = [
  ...flags(
    "-H -P -O0 -O1 -O2 -O3 -empty -executable -readable -writable -nouser -nogroup -true " +
      "-false -depth -d -xdev -mount -noleaf -ignore_readdir_race -noignore_readdir_race " +
      "-daystart -prune -quit -not -a -and -o -or -print -print0 -help -version -nowarn -warn",
  ),
  withEffect(flag("-L"), "follows-links"),
  withEffect(flag("-follow"), "follows-links"),
  withEffect(flag("-ls"), "prints-details"),
  withEffect(valued("-printf"), "prints-details"),
  // The command runs on every file found, so find then reads the contents of its whole tree.
  withEffect({ names: ["-exec"], value: "command" }, "recursive"),
  withEffect({ names: ["-execdir"], value: "command", runsElsewhere: true }, "recursive"),
  ...valuedEach(
    "-D -name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -lname -ilname -user -group -uid -gid " +
      "-perm -size -type -xtype -mtime -mmin -atime -amin -ctime -cmin -used -links -inum -fstype -context -maxdepth -mindepth",
  ),
  ...["-newer", "-anewer", "-cnewer", "-samefile", "-newermt", "-newerct", "-newerat", "-newermm", "-newerBt", "-newermc", "-newercm"].map(
    (name) => pathValued(name),
  ),
];

export const SEARCHERS = programSpecs([
  ...["grep", "egrep", "fgrep", "zgrep"].map(grep),
  {
    name: "rg",
    summary: "searches trees for a pattern (ripgrep)",
    options: RG_OPTIONS,
    forbidden: [
      ...forbid("--pre", "runs the named program on every file"),
      ...forbid("--hostname-bin", "runs the named program"),
      ...forbid("-z --search-zip", "runs decompression programs"),
    ],
    operands: { leading: ["text"], unlessOptions: [...PATTERN_OPTIONS, "--files", "--type-list"] },
    examples: {
      readOnly: ["rg TODO src", "rg -n --type ts foo", "rg --files"],
      notReadOnly: ["rg --pre=sh x .", "rg -{-pre=sh,e} x .", "rg --pre sh x"],
    },
  },
  {
    name: "ag",
    summary: "searches trees for a pattern (the silver searcher)",
    options: [
      ...flags(
        "-i -s -S -w -Q -v -c -z -0 --literal --case-sensitive --ignore-case --smart-case " +
          "--word-regexp --count --nocolor --color --noheading --heading --nobreak --break --filename " +
          "--nofilename --column --numbers --nonumbers --vimgrep --stats --null --search-zip -F",
      ),
      withEffect(flag("-l", "--files-with-matches"), "lists-names"),
      withEffect(flag("-L", "--files-without-matches"), "lists-names"),
      withEffect(flag("-g"), "lists-names"),
      withEffect(flag("--hidden"), "hidden"),
      withEffect(flag("-u", "--unrestricted"), "no-ignore"),
      withEffect(flag("-U", "--skip-vcs-ignores"), "no-ignore"),
      withEffect(flag("-a", "--all-types"), "no-ignore"),
      withEffect(flag("-t", "--all-text"), "no-ignore"),
      withEffect(flag("-f", "--follow"), "follows-links"),
      valued("-G", "--file-search-regex"),
      valued("-A", "--after"),
      valued("-B", "--before"),
      valued("-C", "--context"),
      valued("-m", "--max-count"),
      valued("--depth"),
      valued("--ignore"),
      valued("--ignore-dir"),
      pathValued("-p", "--path-to-ignore"),
      valued("-W", "--width"),
    ],
    forbidden: forbid("--pager", "runs the named program"),
    operands: { leading: ["text"] },
  },
  {
    name: "ack",
    summary: "searches trees for a pattern",
    options: [
      ...flags(
        "-i -I -s -S -w -v -c -h -H -n -o -k -r -R --ignore-case --smart-case --word-regexp --invert-match --count " +
          "--no-filename --with-filename --no-recurse --nocolor --color --noenv --heading --noheading --column --nocolumn",
      ),
      withEffect(flag("-l", "--files-with-matches"), "lists-names"),
      withEffect(flag("-L", "--files-without-matches"), "lists-names"),
      withEffect(flag("-f"), "lists-names"),
      valued("-A", "--after-context"),
      valued("-B", "--before-context"),
      valued("-C", "--context"),
      valued("-m", "--max-count"),
      valued("--type"),
      valued("--ignore-dir"),
      valued("--noignore-dir"),
      valued("--ignore-file"),
    ],
    forbidden: [
      ...forbid("--pager", "runs the named program"),
      ...forbid("--output", "evaluates a Perl expression for every match"),
      ...forbid("--ackrc", "loads options from a file, --pager among them"),
      ...forbid("--type-set --type-add", "changes file types from the command line"),
    ],
    operands: { leading: ["text"] },
  },
  {
    name: "find",
    summary: "lists files below start points by name, type, size and time",
    style: "single-dash",
    options: FIND_OPTIONS,
    forbidden: [
      ...forbid("-delete", "deletes the files it finds"),
      ...forbid("-ok -okdir", "asks on the terminal before running a command on each file"),
      ...forbid("-fprint -fprint0 -fprintf -fls", "writes its output to a file"),
      ...forbid("-files0-from", "reads its start points from a file"),
    ],
    operands: {
      check: (value) => (["(", ")", "!", ","].includes(value) || !value.startsWith("-") ? undefined : `${value} is not a start point`),
    },
    examples: {
      readOnly: [
        "find . -name '*.ts'",
        "find src -type f -newer package.json",
        "find . -maxdepth 2 -type d",
        "find src -name '*.ts' -exec grep -l TODO {} +",
      ],
      notReadOnly: [
        "find . -delete",
        "find . -exec rm {} ;",
        "find . -exec sh -c 'id' ;",
        "find ~ -exec cat {} +",
        "find . -fprint out",
        "find . -name x -o -delete",
        "find . -exec grep x {}",
      ],
    },
  },
  {
    name: "fd",
    summary: "lists files below a directory by pattern",
    options: [
      ...flags(
        "-s -i -g -F -a -p -0 -1 -q --case-sensitive --ignore-case --glob --fixed-strings --regex " +
          "--absolute-path --full-path --print0 --quiet --show-errors --strip-cwd-prefix --prune",
      ),
      withEffect(flag("-H", "--hidden"), "hidden"),
      withEffect(flag("-I", "--no-ignore"), "no-ignore"),
      withEffect(flag("-u", "--unrestricted"), "no-ignore"),
      withEffect(flag("--no-ignore-vcs"), "no-ignore"),
      withEffect(flag("-L", "--follow"), "follows-links"),
      withEffect(flag("-l", "--list-details"), "prints-details"),
      valued("-d", "--max-depth"),
      valued("--min-depth"),
      valued("--exact-depth"),
      valued("-E", "--exclude"),
      valued("-t", "--type"),
      valued("-e", "--extension"),
      valued("-S", "--size"),
      valued("--changed-within"),
      valued("--changed-before"),
      valued("-o", "--owner"),
      valued("-c", "--color"),
      valued("-j", "--threads"),
      valued("--max-results"),
      valued("--base-directory"),
      valued("--path-separator"),
    ],
    forbidden: forbid("-x --exec -X --exec-batch", "runs a command on the files it finds"),
    operands: { leading: ["text"] },
    examples: { readOnly: ["fd -e ts", "fd config src"], notReadOnly: ["fd -x rm", "fd . -X cat"] },
  },
]);
