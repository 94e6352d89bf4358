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
  withEffect,
  type ForbiddenOption,
  type OptionSpec,
  type ParsedArguments,
  type ProgramSpec,
} from "../command-spec.js";
import { SECRET_VARIABLE_NAME } from "../../secret-variables.js";
import { namedHost } from "../named-hosts.js";

/**
 * git, read-only subcommands only. Repository settings that run programs (`core.fsmonitor`,
 * `diff.external`, a textconv driver, a pager) are checked separately, per repository.
 */

/** Options refused on every read-only subcommand: they write, run programs or reach other repositories. */
const GIT_FORBIDDEN: ForbiddenOption[] = [
  ...forbid("--output", "writes the output to a file"),
  ...forbid("--ext-diff", "runs the configured external diff program"),
  ...forbid("--textconv --filters", "runs the configured conversion filters"),
  ...forbid("--show-signature", "runs the configured signature verifier (gpg.program)"),
  ...forbid("-O --open-files-in-pager", "runs a pager program"),
  ...forbid("--upload-pack --receive-pack --exec", "runs the named program"),
  ...forbid("--help", "opens the configured manual viewer"),
];

const DIFF_OPTIONS: OptionSpec[] = [
  ...flags(
    "-p -u --patch -s --no-patch --raw --patch-with-raw --numstat --shortstat --summary --name-only --name-status " +
      "--compact-summary --patch-with-stat -z --full-index --binary --find-copies-harder -D --irreversible-delete --pickaxe-all " +
      "--pickaxe-regex -R -a --text --ignore-cr-at-eol --ignore-space-at-eol -b --ignore-space-change -w --ignore-all-space " +
      "--ignore-blank-lines -W --function-context --exit-code --quiet --no-ext-diff --no-textconv --no-prefix " +
      "--default-prefix --ita-invisible-in-index --minimal --patience --histogram --indent-heuristic --no-indent-heuristic " +
      "--no-renames --rename-empty --no-rename-empty --check --no-color --no-color-moved --cached --staged --merge-base " +
      "--no-relative -1 -2 -3 --ours --theirs --base --cc -c -m --combined-all-paths --no-diff-merges --remerge-diff --full-diff",
  ),
  ...optionalEach(
    "--stat --dirstat --abbrev -B -M -C --find-renames --find-copies --relative --word-diff " +
      "--color-words --color --color-moved --ignore-submodules --submodule --diff-merges",
  ),
  optional("-U", "--unified"),
  valued("-l"),
  valued("--diff-filter"),
  valued("-S"),
  valued("-G"),
  valued("-I", "--ignore-matching-lines"),
  valued("--inter-hunk-context"),
  valued("--src-prefix"),
  valued("--dst-prefix"),
  valued("--line-prefix"),
  valued("--word-diff-regex"),
  valued("--color-moved-ws"),
  valued("--anchored"),
  valued("--diff-algorithm"),
  valued("--ws-error-highlight"),
  valued("--stat-width"),
  valued("--stat-name-width"),
  valued("--stat-count"),
  valued("--stat-graph-width"),
  pathValued("--skip-to"),
  pathValued("--rotate-to"),
  pathValued("--orderfile"),
];

const REVISION_OPTIONS: OptionSpec[] = [
  valued("-n", "--max-count"),
  valued("--skip"),
  valued("--since", "--after", "--since-as-filter"),
  valued("--until", "--before"),
  valued("--author"),
  valued("--committer"),
  valued("--grep"),
  valued("--grep-reflog"),
  valued("--min-parents"),
  valued("--max-parents"),
  valued("--glob"),
  valued("--exclude"),
  valued("-L"),
  valued("--max-age"),
  valued("--min-age"),
  ...optionalEach(
    "--branches --tags --remotes --ancestry-path --no-walk --show-linear-break --decorate " +
      "--decorate-refs --decorate-refs-exclude --notes --show-notes --pretty --expand-tabs --date --graph",
  ),
  ...flags(
    "--all-match --invert-grep -i --regexp-ignore-case -E --extended-regexp -F --fixed-strings -P --perl-regexp " +
      "--merges --no-merges --first-parent --exclude-first-parent-only --not --all --reflog --single-worktree --ignore-missing " +
      "--cherry-mark --cherry-pick --left-only --right-only --cherry -g --walk-reflogs --merge --boundary " +
      "--simplify-by-decoration --full-history --dense --sparse --simplify-merges --topo-order --date-order --author-date-order " +
      "--reverse --do-walk --follow --log-size --source --use-mailmap --mailmap --no-mailmap --left-right --oneline " +
      "--abbrev-commit --no-abbrev-commit --no-expand-tabs --no-notes --relative-date --parents --children --no-decorate " +
      "--clear-decorations --no-min-parents --no-max-parents --in-commit-order --count --objects --objects-edge " +
      "--no-object-names --timestamp --header --bisect --disk-usage --alternate-refs --exclude-hidden --show-pulls",
  ),
  valued("--format"),
  valued("--encoding"),
  { names: ["--stdin"], stdin: "names" },
];

const LOG_LIKE: OptionSpec[] = [...DIFF_OPTIONS, ...REVISION_OPTIONS];

const sub = (name: string, summary: string, options: OptionSpec[], rest: Partial<ProgramSpec> = {}): ProgramSpec => ({
  name,
  summary,
  options,
  forbidden: GIT_FORBIDDEN,
  numericOption: true,
  ...rest,
});

/** `git config` reads one named, non-credential setting; listing them all prints what `.git/config` may hold. */
function configReadProblem(parsed: ParsedArguments): string | undefined {
  const values = parsed.operands.map((word) => word.value);
  const names = values[0] === "get" ? values.slice(1) : values;
  if (values[0] === "list" || values[0] === "--list") return "listing git settings prints the credentials .git/config may hold";
  if (names.length !== 1 || names[0] === undefined) return "only reading one named setting is read-only (a second operand sets it)";
  return /extraheader|token|password|secret|credential/i.test(names[0]) || SECRET_VARIABLE_NAME.test(names[0])
    ? "the setting may hold a credential"
    : undefined;
}

/** `git branch NAME` and `git tag NAME` create refs; names are patterns only with `--list`. */
const listOnly = (what: string) => (parsed: ParsedArguments) =>
  parsed.operands.length === 0 || parsed.has("--list") ? undefined : `a name argument creates a ${what}`;

const GIT_VARIABLES = [
  ["GIT_AUTHOR_IDENT"],
  ["GIT_COMMITTER_IDENT"],
  ["GIT_EDITOR"],
  ["GIT_SEQUENCE_EDITOR"],
  ["GIT_PAGER"],
  ["GIT_DEFAULT_BRANCH"],
  ["GIT_SHELL_PATH"],
];

export const GIT = programSpecs([
  {
    name: "git",
    summary: "git, read-only subcommands (status, log, diff, show, grep, ls-files, blame, rev-parse, …)",
    options: [
      valued("-C"),
      flag("--no-pager", "-P"),
      ...flags(
        "--no-optional-locks --literal-pathspecs --glob-pathspecs --noglob-pathspecs " +
          "--icase-pathspecs --no-replace-objects --no-lazy-fetch --no-advice",
      ),
      flag("--version"),
    ],
    forbidden: [
      ...forbid("-c --config-env", "sets configuration, which can run programs (aliases, pagers, hooks)"),
      ...forbid(
        "--exec-path --git-dir --work-tree --namespace --bare --super-prefix --list-cmds",
        "changes which repository or programs git uses",
      ),
      ...forbid("-p --paginate", "runs the configured pager"),
      ...forbid("--help -h --html-path --man-path --info-path", "opens the manual viewer"),
    ],
    bareIsReadOnly: true,
    check: (parsed) => (parsed.has("--version") ? undefined : "git without a subcommand"),
    subcommands: [
      sub("status", "git status", [
        ...flags(
          "-s --short -b --branch --show-stash --long -v --verbose -z --no-column --ahead-behind --no-ahead-behind --renames --no-renames",
        ),
        ...optionalEach("--porcelain -u --untracked-files --ignore-submodules --ignored --column --find-renames"),
      ]),
      sub("log", "git log", LOG_LIKE, { aliases: ["whatchanged"] }),
      sub("show", "git show", LOG_LIKE),
      sub("diff", "git diff", [...DIFF_OPTIONS, withEffect(flag("--no-index"), "recursive")]),
      sub("shortlog", "git shortlog", [
        ...flags("-n --numbered -s --summary -e --email -c --committer --all --no-merges --merges --first-parent"),
        optional("-w"),
        valued("--group"),
        valued("--since"),
        valued("--until"),
        valued("--author"),
        valued("--format"),
      ]),
      sub(
        "blame",
        "git blame",
        [
          ...flags(
            "-l -t -b --reverse --first-parent -p --porcelain --line-porcelain --incremental " +
              "--progress --no-progress --root --show-stats -f --show-name -n " +
              "--show-number -s -e --show-email -w -c --score-debug --color-lines --color-by-age",
          ),
          valued("-L"),
          pathValued("-S"),
          valued("--encoding"),
          pathValued("--contents"),
          valued("--date"),
          optional("-M"),
          optional("-C"),
          valued("--ignore-rev"),
          pathValued("--ignore-revs-file"),
          optional("--abbrev"),
        ],
        { aliases: ["annotate"] },
      ),
      sub(
        "grep",
        "git grep",
        [
          ...flags(
            "-i --ignore-case -I -r --recursive --no-recursive -w --word-regexp -v --invert-match -h -H --full-name -E " +
              "--extended-regexp -G --basic-regexp -F --fixed-strings -P --perl-regexp -n --line-number --column -z --null -o " +
              "--only-matching -c --count --no-color --break --heading -p --show-function -W --function-context --and --or --not " +
              "--all-match -q --quiet --cached --untracked --exclude-standard --recurse-submodules -a --text --no-textconv",
          ),
          withEffect(flag("-l", "--files-with-matches", "--name-only"), "lists-names"),
          withEffect(flag("-L", "--files-without-match"), "lists-names"),
          withEffect(flag("--no-index"), "no-ignore"),
          withEffect(flag("--no-exclude-standard"), "no-ignore"),
          valued("--max-depth"),
          valued("-A", "--after-context"),
          valued("-B", "--before-context"),
          valued("-C", "--context"),
          valued("-m", "--max-count"),
          valued("--threads"),
          pathValued("-f"),
          valued("-e"),
          optional("--color"),
        ],
        { operands: { leading: ["text"], unlessOptions: ["-e", "-f"] } },
      ),
      sub("ls-files", "git ls-files", [
        ...flags(
          "-c -d -m -o -i -s -u -k -z -t -v -f --cached --deleted --modified --others --ignored " +
            "--stage --unmerged --killed --directory --no-empty-directory --eol --exclude-standard " +
            "--error-unmatch --full-name --recurse-submodules --debug --deduplicate --sparse",
        ),
        valued("-x", "--exclude"),
        pathValued("-X", "--exclude-from"),
        valued("--exclude-per-directory"),
        valued("--with-tree"),
        optional("--abbrev"),
        valued("--format"),
      ]),
      sub(
        "ls-tree",
        "git ls-tree",
        [
          ...flags("-d -r -t -l -z --long --name-only --name-status --object-only --full-name --full-tree"),
          optional("--abbrev"),
          valued("--format"),
        ],
        { operands: { role: "text" } },
      ),
      sub(
        "cat-file",
        "git cat-file",
        [
          ...flags("-t -s -e -p --batch-all-objects --buffer --follow-symlinks --unordered --use-mailmap --allow-unknown-type -Z"),
          // --batch-check prints an object's type and size only; the other two print what the names on stdin name.
          optional("--batch-check"),
          { ...optional("--batch"), stdin: "names" },
          { ...optional("--batch-command"), stdin: "names" },
          valued("--path"),
        ],
        { operands: { role: "text" } },
      ),
      sub(
        "rev-parse",
        "git rev-parse",
        [
          ...flags(
            "--show-toplevel --show-cdup --show-prefix --git-dir --git-common-dir --absolute-git-dir " +
              "--is-inside-work-tree --is-inside-git-dir --is-bare-repository --is-shallow-repository --verify " +
              "-q --quiet --symbolic --symbolic-full-name --all --revs-only --no-revs --flags --no-flags " +
              "--sq --sq-quote --not --local-env-vars --show-superproject-working-tree --shared-index-path " +
              "--show-ref-format --keep-dashdash --stop-at-non-option --stuck-long --end-of-options",
          ),
          ...optionalEach("--abbrev-ref --short --branches --tags --remotes --show-object-format"),
          valued("--glob"),
          valued("--exclude"),
          valued("--default"),
          valued("--path-format"),
          valued("--since"),
          valued("--until"),
          valued("--disambiguate"),
          valued("--git-path"),
          valued("--resolve-git-dir"),
        ],
        { operands: { role: "text" } },
      ),
      sub("rev-list", "git rev-list", LOG_LIKE, { operands: { role: "text" } }),
      sub(
        "describe",
        "git describe",
        [
          ...flags("--all --tags --contains --exact-match --debug --long --always --first-parent"),
          valued("--abbrev"),
          valued("--candidates"),
          valued("--match"),
          valued("--exclude"),
          ...optionalEach("--dirty --broken"),
        ],
        { operands: { role: "text" } },
      ),
      sub(
        "name-rev",
        "git name-rev",
        [...flags("--tags --all --annotate-stdin --name-only --no-undefined --always"), valued("--refs"), valued("--exclude")],
        { operands: { role: "text" } },
      ),
      sub("merge-base", "git merge-base", flags("-a --all --octopus --independent --is-ancestor --fork-point"), {
        operands: { role: "text" },
      }),
      sub(
        "show-ref",
        "git show-ref",
        [
          ...flags("--head --branches --heads --tags -d --dereference -s -q --quiet --verify --exists"),
          optional("--hash"),
          optional("--abbrev"),
          optional("--exclude-existing"),
        ],
        { operands: { role: "text" } },
      ),
      sub(
        "for-each-ref",
        "git for-each-ref",
        [
          ...flags("--shell --python --tcl --perl --ignore-case --omit-empty --stdin --include-root-refs"),
          ...valuedEach("--count --sort --format --points-at --exclude"),
          ...optionalEach("--color --merged --no-merged --contains --no-contains"),
        ],
        { operands: { role: "text" } },
      ),
      sub("count-objects", "git count-objects", flags("-v --verbose -H --human-readable"), { operands: { max: 0 } }),
      ...["diff-tree", "diff-files", "diff-index"].map((name) =>
        sub(name, `git ${name}`, [...DIFF_OPTIONS, ...REVISION_OPTIONS, ...flags("-r -t --root --always --no-commit-id -v")]),
      ),
      sub("check-ignore", "git check-ignore", flags("-q --quiet -v --verbose -n --non-matching --no-index -z --stdin")),
      sub("check-attr", "git check-attr", [...flags("-a --all --cached --stdin -z"), valued("--source")], { operands: { role: "text" } }),
      sub("var", "git var (one identity or program name)", [], {
        forbidden: [...GIT_FORBIDDEN, ...forbid("-l", "lists every configuration value, credentials included")],
        operands: { oneOf: GIT_VARIABLES },
      }),
      sub("version", "git version", flags("--build-options"), { operands: { max: 0 } }),
      sub("cherry", "git cherry", [flag("-v"), optional("--abbrev")], { operands: { role: "text" } }),
      sub(
        "show-branch",
        "git show-branch",
        [
          ...flags(
            "-a --all -r --remotes --topo-order --date-order --current --no-color " +
              "--sparse --list --merge-base --independent --no-name --sha1-name --topics",
          ),
          ...optionalEach("--color --more -g --reflog"),
        ],
        { operands: { role: "text" } },
      ),
      sub("range-diff", "git range-diff", [...LOG_LIKE, flag("--no-dual-color"), valued("--creation-factor")], {
        operands: { role: "text" },
      }),
      {
        name: "branch",
        summary: "git branch (listing only)",
        options: [
          flag("-l", "--list"),
          ...flags("-a --all -r --remotes -v --verbose -i --ignore-case --show-current --omit-empty --no-abbrev --no-column --no-color"),
          ...valuedEach("--points-at --sort --format --abbrev"),
          // Their commit defaults to HEAD (`git branch --merged`), and they imply --list (git help branch).
          ...optionalEach("--color --column --contains --no-contains --merged --no-merged"),
        ],
        forbidden: [
          ...GIT_FORBIDDEN,
          ...forbid(
            "-d -D -m -M -c -C -f -u -t --delete --move --copy --force --set-upstream-to " +
              "--unset-upstream --edit-description --create-reflog --track --no-track --recurse-submodules",
            "creates, renames or deletes branches",
          ),
        ],
        operands: { role: "text" },
        check: (parsed) =>
          ["--contains", "--no-contains", "--merged", "--no-merged", "--points-at"].some((option) => parsed.has(option))
            ? undefined
            : listOnly("branch")(parsed),
      },
      {
        name: "tag",
        summary: "git tag (listing only)",
        options: [
          flag("-l", "--list"),
          ...flags("-i --ignore-case --omit-empty --no-column"),
          optional("-n"),
          ...valuedEach("--contains --no-contains --merged --no-merged --points-at --sort --format"),
          ...optionalEach("--color --column"),
        ],
        forbidden: [
          ...GIT_FORBIDDEN,
          ...forbid(
            "-a -s -u -f -d -m -F -e -v --annotate --sign --local-user --force " +
              "--delete --message --file --edit --verify --cleanup --create-reflog",
            "creates, deletes or verifies tags",
          ),
        ],
        operands: { role: "text" },
        check: listOnly("tag"),
      },
      {
        name: "remote",
        summary: "git remote (list, show, get-url)",
        options: [flag("-v", "--verbose")],
        forbidden: GIT_FORBIDDEN,
        bareIsReadOnly: true,
        subcommands: [
          {
            name: "show",
            summary: "git remote show (a configured remote, not a URL)",
            options: [flag("-n")],
            operands: { role: "text", check: namedHost },
          },
          { name: "get-url", summary: "git remote get-url", options: flags("--push --all"), operands: { role: "text" } },
        ],
      },
      {
        name: "stash",
        summary: "git stash list, show",
        subcommands: [
          sub("list", "git stash list", LOG_LIKE, { operands: { max: 0 } }),
          sub("show", "git stash show", [...DIFF_OPTIONS, ...flags("--include-untracked --only-untracked")], {
            operands: { role: "text" },
          }),
        ],
      },
      {
        name: "worktree",
        summary: "git worktree list",
        subcommands: [
          {
            name: "list",
            summary: "git worktree list",
            options: [...flags("--porcelain -v --verbose -z"), valued("--expire")],
            operands: { max: 0 },
          },
        ],
      },
      {
        name: "clean",
        summary: "git clean -n (a dry run lists what would be deleted)",
        options: [flag("-n", "--dry-run"), ...flags("-d -x -X -q --quiet"), valued("-e", "--exclude")],
        forbidden: [...GIT_FORBIDDEN, ...forbid("-f --force -i --interactive", "deletes untracked files")],
        operands: { role: "path" },
        check: (parsed) => (parsed.has("-n") ? undefined : "git clean deletes untracked files unless -n"),
      },
      {
        name: "reflog",
        summary: "git reflog show",
        bareIsReadOnly: true,
        // Bare `git reflog` is `git reflog show`, with log's options (`git reflog -10`).
        options: LOG_LIKE,
        numericOption: true,
        forbidden: GIT_FORBIDDEN,
        operands: {
          role: "text",
          check: (value) => (/^(expire|delete|drop|write)$/.test(value) ? `git reflog ${value} changes the reflog` : undefined),
        },
        subcommands: [sub("show", "git reflog show", LOG_LIKE, { operands: { role: "text" } })],
      },
      {
        name: "submodule",
        summary: "git submodule status, summary",
        bareIsReadOnly: true,
        options: [flag("--quiet", "-q")],
        subcommands: [
          { name: "status", summary: "git submodule status", options: flags("--cached --recursive") },
          {
            name: "summary",
            summary: "git submodule summary",
            options: [...flags("--cached --files"), valued("-n", "--summary-limit")],
            operands: { role: "text" },
          },
        ],
      },
      {
        name: "config",
        summary: "git config (one named, non-credential setting)",
        options: [
          ...flags(
            "--get --get-all --get-color --get-colorbool --global --system --local --worktree --bool --int --path " +
              "--bool-or-int --expiry-date -z --null --name-only --show-origin --show-scope --includes --no-includes --all",
          ),
          pathValued("-f", "--file"),
          valued("--blob"),
          valued("--type"),
          valued("--default"),
        ],
        forbidden: [
          ...GIT_FORBIDDEN,
          ...forbid("-l --list --get-regexp --get-urlmatch --regexp --url", "prints many settings, credentials included"),
          ...forbid(
            "-e --edit --add --unset --unset-all --replace-all --rename-section --remove-section --value --fixed-value --comment",
            "changes settings",
          ),
        ],
        operands: { role: "text" },
        check: configReadProblem,
      },
    ],
    examples: {
      readOnly: [
        "git status",
        "git log --oneline -n 5",
        "git diff --stat HEAD~1",
        "git -C src log -1",
        "git branch -a",
        "git config user.name",
        "git show HEAD:README.md",
      ],
      notReadOnly: [
        "git push",
        "git -c core.pager=sh log",
        "git log --output=pwn.txt",
        "git log -{-output=pwn.txt,-stat}",
        "git var -l",
        "git config --get-urlmatch http https://x",
        "git config --list",
        "git branch new-branch",
        "git tag v1",
        "git grep -iO'touch x' e",
        "git stash",
        "git diff --ext-diff",
        "git log --show-signature",
      ],
    },
  },
]);
