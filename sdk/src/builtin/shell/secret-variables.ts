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

/**
 * Credential variables recognised by the structure of their name, not a list of names: the name is
 * split into words at `_`, `.` and `-` (`SMTP_PASS` → SMTP, PASS), and a rule matches a word, the
 * end of the name, or a fragment anywhere. Each rule gives why and an example it must match.
 */
export interface CredentialNameRule {
  /** Tested against the upper-cased name. */
  pattern: RegExp;
  reason: string;
  example: string;
}

/** A word of the name (between separators or at an end). */
const word = (alternatives: string) => new RegExp(`(^|[_.-])(${alternatives})($|[_.-])`);

export const CREDENTIAL_NAME_RULES: readonly CredentialNameRule[] = [
  {
    pattern: /PASSWORD|PASSWD|PASSPHRASE|SECRET|CREDENTIAL|APIKEY|PRIVATEKEY/,
    reason: "long words that only mean a credential, fused into the name or not",
    example: "DBPASSWORD",
  },
  {
    pattern: word("PASS|PWD|PW|PASSWORDS|SECRETS"),
    reason: "a password by its short names (SMTP_PASS, MYSQL_PWD), PWD itself excepted below",
    example: "SMTP_PASS",
  },
  {
    pattern: /(PASS|PWD|TOKEN|SECRET|KEY)$/,
    reason: "a name ending in a credential word, fused (SMTPPASS, APITOKEN, STRIPEKEY)",
    example: "SMTPPASS",
  },
  {
    pattern: word("TOKEN|TOKENS|KEY|KEYS|AUTH|CREDS|JWT|BEARER|COOKIE|COOKIES|SESSION|SID|PAT|OTP|TOTP"),
    reason: "tokens, keys, auth values, session cookies and one-time codes (GITHUB_TOKEN, STRIPE_KEY, NPM_AUTH, GH_PAT)",
    example: "NPM_AUTH_VALUE",
  },
  {
    pattern: word("DSN|CONNECTION[_.-]?STRING|CONN[_.-]?STR"),
    reason: "connection strings carry the user and password (SENTRY_DSN, AZURE_CONNECTION_STRING)",
    example: "SENTRY_DSN",
  },
  {
    pattern:
      /(^|[_.-])(MONGO|MONGODB|POSTGRES|POSTGRESQL|PG|MYSQL|MARIADB|REDIS|AMQP|RABBITMQ|DATABASE|DB|SMTP|MAIL|BROKER|ELASTICSEARCH|ES|KAFKA|NATS|MQTT|LDAP|CLICKHOUSE|COUCHDB|NEO4J)[_.-]?(URL|URI)$/,
    reason: "database, broker and mail server URLs carry the user and password by convention",
    example: "MONGO_URI",
  },
];

/** Names the rules match that are not credentials, each with why. */
export const CREDENTIAL_NAME_EXCEPTIONS: readonly { name: string; reason: string }[] = [
  { name: "PWD", reason: "the working directory bash maintains" },
  { name: "OLDPWD", reason: "the previous working directory (cd -)" },
  { name: "GPG_TTY", reason: "the terminal gpg-agent asks for a passphrase on" },
  { name: "SSH_AUTH_SOCK", reason: "the path of the agent's socket, not a key" },
  { name: "XAUTHORITY", reason: "the path of the X authority file" },
  { name: "TOKENIZERS_PARALLELISM", reason: "a Hugging Face tokenizers switch" },
  { name: "KEYTIMEOUT", reason: "zsh's key sequence timeout" },
  { name: "PASSWORD_STORE_DIR", reason: "the directory pass keeps its store in, not a password" },
  { name: "GNUPG_PINENTRY", reason: "the pinentry program's name" },
];

const EXCEPTIONS = new Set(CREDENTIAL_NAME_EXCEPTIONS.map((entry) => entry.name));

/** A URL with userinfo (`postgres://app:s3cret@db/x`, `https://token@host`): the value itself is a credential. */
const URL_WITH_USERINFO = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/@\s]+@/;

/**
 * Whether a variable holds a credential: by the structure of its name, or because its value (by
 * default the agent's own environment, which commands inherit) is a URL with userinfo.
 */
export function holdsCredential(name: string, value: string | undefined = process.env[name]): boolean {
  const upper = name.toUpperCase();
  if (EXCEPTIONS.has(upper)) return false;
  if (CREDENTIAL_NAME_RULES.some((rule) => rule.pattern.test(upper))) return true;
  return value !== undefined && URL_WITH_USERINFO.test(value);
}

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

/** A name that holds a credential (`GITHUB_TOKEN`, `SMTP_PASS`, `MONGO_URI`): see `holdsCredential`. */
export const SECRET_VARIABLE_NAME: { test(name: string): boolean } = { test: (name) => holdsCredential(name) };
