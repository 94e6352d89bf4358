/**
 * Environment variable names as data: which ones hold credentials (printing or expanding them
 * leaks a secret) and which ones change what code runs (assigning them, a `for` loop variable
 * included, is a bypass-immune ASK). Each group says where its names come from.
 */

interface VariableGroup {
  /** Where the names come from: the tool or standard that reads them. */
  source: string;
  /** Exact names, or `PREFIX_*` for a whole family. */
  names: readonly string[];
}

/** Names that make a command load code, change which program runs, or run hooks. */
export const CODE_LOADING_VARIABLES: readonly VariableGroup[] = [
  { source: "the dynamic linker (ld.so, dyld)", names: ["LD_*", "DYLD_*"] },
  {
    source: "bash (variables the shell itself acts on)",
    names: [
      "PATH",
      "BASH_ENV",
      "ENV",
      "PROMPT_COMMAND",
      "IFS",
      "SHELLOPTS",
      "BASHOPTS",
      "PS4",
      "HOME",
      "ZDOTDIR",
      "CDPATH",
      "GLOBIGNORE",
      "BASH_XTRACEFD",
      "SHELL",
      "TMPDIR",
      "HISTFILE",
      "INPUTRC",
      "BASH_LOADABLES_PATH",
      "EXECIGNORE",
      "FUNCNEST",
    ],
  },
  { source: "git (every GIT_* variable, e.g. GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_CONFIG_*)", names: ["GIT_*"] },
  {
    source: "pagers, editors and browsers programs start",
    names: [
      "PAGER",
      "MANPAGER",
      "SYSTEMD_PAGER",
      "GIT_PAGER",
      "EDITOR",
      "VISUAL",
      "BROWSER",
      "LESSOPEN",
      "LESSCLOSE",
      "LESSKEY",
      "MANOPT",
      "GROFF_*",
    ],
  },
  {
    source: "language runtimes",
    names: [
      "PYTHONPATH",
      "PYTHONSTARTUP",
      "PYTHONHOME",
      "PYTHONINSPECT",
      "PYTHONUSERBASE",
      "NODE_OPTIONS",
      "NODE_PATH",
      "PERL5OPT",
      "PERL5LIB",
      "PERLLIB",
      "RUBYOPT",
      "RUBYLIB",
      "JAVA_TOOL_OPTIONS",
      "_JAVA_OPTIONS",
      "JDK_JAVA_OPTIONS",
      "CLASSPATH",
      "GOFLAGS",
      "GOTOOLCHAIN",
      "RUSTC_WRAPPER",
      "RUSTUP_TOOLCHAIN",
      "CARGO_*",
      "RUSTFLAGS",
      "PHPRC",
      "LUA_INIT",
      "LUA_PATH",
      "TCLLIBPATH",
    ],
  },
  {
    source: "package managers and build tools",
    names: [
      "NPM_CONFIG_*",
      "npm_config_*",
      "YARN_*",
      "PNPM_*",
      "PIP_*",
      "UV_*",
      "POETRY_*",
      "COREPACK_*",
      "MAKEFLAGS",
      "MAKEFILES",
      "CC",
      "CXX",
      "LDFLAGS",
      "CFLAGS",
    ],
  },
  {
    source: "askpass helpers and tool configuration paths",
    names: [
      "SSH_ASKPASS",
      "SUDO_ASKPASS",
      "GIT_ASKPASS",
      "RIPGREP_CONFIG_PATH",
      "XDG_CONFIG_HOME",
      "XDG_DATA_HOME",
      "XDG_CONFIG_DIRS",
      "KUBECONFIG",
      "DOCKER_HOST",
      "DOCKER_CONFIG",
      "AWS_CONFIG_FILE",
      "AWS_SHARED_CREDENTIALS_FILE",
      "GNUPGHOME",
      "ACKRC",
      "AG_*",
      "GREP_OPTIONS",
      "TAR_OPTIONS",
      "LESS",
      "WGETRC",
      "CURL_HOME",
    ],
  },
];

/** Fragments of names (a `/…` entry is a regular expression) that hold credentials by convention (12-factor configs, cloud SDKs, CI systems). */
export const CREDENTIAL_NAME_FRAGMENTS: readonly VariableGroup[] = [
  {
    source: "common conventions",
    names: [
      "SECRET",
      "TOKEN",
      "PASSWORD",
      "PASSWD",
      "PASSPHRASE",
      "API_KEY",
      "APIKEY",
      "ACCESS_KEY",
      "PRIVATE_KEY",
      "CREDENTIAL",
      "AUTH",
      "COOKIE",
      "SESSION",
    ],
  },
  {
    source: "database and service URLs with embedded credentials",
    names: ["DATABASE_URL", "REDIS_URL", "MONGO_URL", "MONGODB_URI", "AMQP_URL", "_DSN", "CONNECTION_STRING"],
  },
  {
    source: "cloud and CI systems (AWS, GCP, Azure, GitHub, GitLab, npm, PyPI)",
    names: [
      "AWS_SECRET",
      "AZURE_CLIENT_SECRET",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "GH_ENTERPRISE",
      "CI_JOB_JWT",
      "NPM_TOKEN",
      "TWINE_PASSWORD",
      "/(^|_)PAT($|_)",
    ],
  },
];

function toPattern(names: readonly string[], anchored: boolean): RegExp {
  const parts = names.map((name) =>
    name.startsWith("/") ? name.slice(1) : name.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*$/, ".*"),
  );
  return new RegExp(anchored ? `^(${parts.join("|")})$` : `(${parts.join("|")})`, anchored ? "" : "i");
}

/** Assigning one of these changes which code runs. */
export const CODE_LOADING_VARIABLE = toPattern(
  CODE_LOADING_VARIABLES.flatMap((group) => group.names),
  true,
);

/** A name that looks like it holds a credential (`GITHUB_TOKEN`, `DB_PASSWORD`, `STRIPE_API_KEY`). */
export const SECRET_VARIABLE_NAME = toPattern(
  CREDENTIAL_NAME_FRAGMENTS.flatMap((group) => group.names),
  false,
);
