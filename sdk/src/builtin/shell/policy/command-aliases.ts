/**
 * Spellings programs accept for the same subcommand, as data, so a deny rule written for the
 * canonical form (`Bash(npm install:*)`) also matches `npm i`, `npm add` and npm's own typo
 * aliases (`npm isntall`). Each table lists the program's documented aliases.
 */

interface SubcommandAliases {
  program: string;
  /** Where the aliases come from. */
  source: string;
  /** canonical subcommand → other spellings */
  aliases: Record<string, readonly string[]>;
}

export const SUBCOMMAND_ALIASES: readonly SubcommandAliases[] = [
  {
    program: "npm",
    source: "npm's command aliases (lib/utils/cmd-list.js)",
    aliases: {
      install: ["i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add"],
      uninstall: ["un", "unlink", "remove", "rm", "r"],
      "install-test": ["it"],
      "install-ci-test": ["cit", "clean-install-test", "sit"],
      ci: ["clean-install", "ic", "install-clean", "isntall-clean"],
      "run-script": ["run", "rum", "urn"],
      test: ["t", "tst"],
      exec: ["x"],
      publish: ["pub"],
      update: ["up", "upgrade", "udpate"],
      rebuild: ["rb"],
      link: ["ln"],
      config: ["c"],
      "dist-tag": ["dist-tags"],
      owner: ["author"],
      deprecate: [],
      unpublish: [],
    },
  },
  {
    program: "pnpm",
    source: "pnpm's command aliases",
    aliases: {
      install: ["i"],
      add: [],
      remove: ["rm", "uninstall", "un"],
      update: ["up", "upgrade"],
      exec: [],
      run: ["run-script"],
      publish: [],
    },
  },
  { program: "yarn", source: "yarn's command aliases", aliases: { add: [], remove: [], upgrade: ["up"], run: [], publish: [] } },
  {
    program: "cargo",
    source: "cargo's built-in aliases",
    aliases: { build: ["b"], check: ["c"], doc: ["d"], new: [], run: ["r"], test: ["t"], remove: ["rm"], publish: [], install: [] },
  },
  { program: "go", source: "the go command", aliases: { run: [], install: [], get: [], generate: [] } },
  {
    program: "docker",
    source: "docker's management commands (docker container rm is docker rm)",
    aliases: {
      rm: ["container rm", "container remove"],
      rmi: ["image rm", "image remove"],
      run: ["container run"],
      exec: ["container exec"],
      kill: ["container kill"],
      stop: ["container stop"],
      push: ["image push"],
      pull: ["image pull"],
      prune: ["system prune"],
    },
  },
  { program: "kubectl", source: "kubectl", aliases: { delete: [], apply: [], exec: [], "port-forward": [] } },
  { program: "pip", source: "pip", aliases: { install: [], uninstall: [] } },
  { program: "pip3", source: "pip", aliases: { install: [], uninstall: [] } },
];

/**
 * Option spellings that turn one subcommand into another: `terraform apply -destroy` is
 * `terraform destroy`, Listed where a deny rule on the
 * canonical form would otherwise be evaded.
 */
export const EQUIVALENT_FORMS: readonly { program: string; subcommand: string; option: string; canonical: string }[] = [
  { program: "terraform", subcommand: "apply", option: "-destroy", canonical: "destroy" },
  { program: "terraform", subcommand: "plan", option: "-destroy", canonical: "destroy" },
  { program: "tofu", subcommand: "apply", option: "-destroy", canonical: "destroy" },
];

/** Multi-call binaries: `busybox rm` runs `rm`. */
export const MULTI_CALL_BINARIES: ReadonlySet<string> = new Set(["busybox", "toybox"]);

/** Interpreters and shells: a prefix rule for them would allow any program text. */
export const INTERPRETERS: ReadonlySet<string> = new Set([
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
  "python2",
  "perl",
  "ruby",
  "node",
  "deno",
  "bun",
  "php",
  "lua",
  "luajit",
  "osascript",
  "pwsh",
  "powershell",
  "Rscript",
  "julia",
  "tclsh",
  "wish",
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "jshell",
  "groovy",
  "scala",
  "elixir",
  "erl",
  "ghci",
  "swift",
]);

/**
 * Options whose value is a program the command runs (`npm --script-shell`, `rg --pre`, `tar -I`):
 * an allow rule for the outer command does not cover that program.
 */
export const PROGRAM_VALUE_OPTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ["npm", ["--script-shell", "--shell"]],
  ["yarn", ["--script-shell"]],
  ["pnpm", ["--script-shell"]],
  ["rg", ["--pre", "--hostname-bin"]],
  ["sort", ["--compress-program"]],
  [
    "tar",
    ["--use-compress-program", "-I", "--to-command", "--checkpoint-action", "--rsh-command", "--info-script", "--new-volume-script", "-F"],
  ],
  ["rsync", ["-e", "--rsh", "--rsync-path"]],
  ["git", ["--upload-pack", "--receive-pack", "--exec", "-u"]],
  ["ssh", ["-o"]],
  ["scp", ["-S", "-o"]],
  ["less", ["--lesskey-src"]],
  ["man", ["-P", "--pager"]],
  ["bat", ["--pager"]],
  ["zip", ["-TT", "--unzip-command"]],
]);
