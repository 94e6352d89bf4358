/**
 * Where secrets live, as data: every entry says what it is and where that is documented, so the
 * list can be reviewed and extended entry by entry. `dangerous-paths.ts` turns it into checks; the
 * Read, Grep and Glob tools and the Bash analysis share them. Names compare case-insensitively and
 * by whole path segments (`.aws` matches `~/.aws/credentials`, not `my.aws`).
 */

export type SecretCategory =
  | "agent-cli"
  | "cloud-cli"
  | "package-registry"
  | "container-registry"
  | "kubernetes"
  | "vcs-and-ci"
  | "vpn-and-wifi"
  | "browser"
  | "database"
  | "shell-history"
  | "password-store"
  | "keys"
  | "environment";

/** A file or directory that holds secrets wherever it is found (usually below the home directory). */
export interface SecretLocation {
  /** A file name (`.pgpass`) or a path of a few segments (`.config/gh/hosts.yml`), matched at any depth. */
  path: string;
  /** A directory's whole contents are secret. */
  kind: "file" | "directory";
  category: SecretCategory;
  /** What the tool keeps there, and where it says so. */
  source: string;
}

/** A file-name pattern for secrets that can be anywhere in a project (`.env.production`, `prod.tfvars`). */
export interface SecretNamePattern {
  pattern: RegExp;
  /** A name the pattern matches: globs such as `cat *.pem` are tested against it. */
  sample: string;
  category: SecretCategory;
  source: string;
}

/** A system path (absolute) whose contents are secret. */
export interface SecretSystemPath {
  pattern: RegExp;
  /** A path the pattern matches: globs such as `/etc/shado?` are tested against it. */
  probe: string;
  /**
   * The concrete paths the Bash sandbox masks for this entry (a `*` in the last segment matches
   * what is there), each matched by `pattern`; none for `/proc`, which the sandbox replaces with
   * its own (docs/sandbox.md#the-bash-tool).
   */
  masks: readonly string[];
  category: SecretCategory;
  source: string;
}

const file = (path: string, category: SecretCategory, source: string): SecretLocation => ({ path, kind: "file", category, source });
const directory = (path: string, category: SecretCategory, source: string): SecretLocation => ({
  path,
  kind: "directory",
  category,
  source,
});

export const SECRET_LOCATIONS: readonly SecretLocation[] = [
  // Coding agents keep OAuth tokens and API keys in their home folders.
  file(".claude/.credentials.json", "agent-cli", "Claude Code: OAuth credentials on Linux (docs.claude.com, IAM: credential management)"),
  file(".claude.json", "agent-cli", "Claude Code: global state, may hold an API key and MCP server environments"),
  file(".codex/auth.json", "agent-cli", "OpenAI Codex CLI: API key or ChatGPT tokens (codex docs, authentication)"),
  file(".gemini/oauth_creds.json", "agent-cli", "Gemini CLI: Google OAuth tokens (gemini-cli docs, authentication)"),
  file(".gemini/google_accounts.json", "agent-cli", "Gemini CLI: signed-in Google accounts"),
  file(".qwen/oauth_creds.json", "agent-cli", "Qwen Code (a Gemini CLI fork): OAuth tokens"),
  directory(".config/github-copilot", "agent-cli", "GitHub Copilot (editors and CLI): hosts.json / apps.json OAuth tokens"),
  directory(".copilot", "agent-cli", "GitHub Copilot CLI: config and session tokens"),
  file(".config/cursor/auth.json", "agent-cli", "Cursor CLI (cursor-agent): access tokens"),
  file("state.vscdb", "agent-cli", "VS Code and Cursor global state database (User/globalStorage): extension tokens"),
  file(".local/share/opencode/auth.json", "agent-cli", "opencode: provider API keys (opencode docs, providers)"),
  file(".aider.conf.yml", "agent-cli", "aider: may hold openai-api-key / anthropic-api-key (aider docs, config file)"),
  directory(".continue", "agent-cli", "Continue: config.json / config.yaml with model API keys"),

  // Cloud command-line tools.
  directory(".aws", "cloud-cli", "AWS CLI: credentials, config, sso/cache tokens (AWS CLI user guide, configuration files)"),
  directory(".config/gcloud", "cloud-cli", "Google Cloud CLI: credentials.db, application_default_credentials.json"),
  directory(".azure", "cloud-cli", "Azure CLI: msal_token_cache.json, service principal secrets"),
  directory(".oci", "cloud-cli", "Oracle Cloud CLI: config and API signing keys"),
  directory(".config/doctl", "cloud-cli", "DigitalOcean doctl: config.yaml access-token"),
  directory(".config/hcloud", "cloud-cli", "Hetzner Cloud CLI: cli.toml tokens"),
  directory(".config/scw", "cloud-cli", "Scaleway CLI: config.yaml secret_key"),
  directory(".aliyun", "cloud-cli", "Alibaba Cloud CLI: config.json AccessKey secrets"),
  directory(".bluemix", "cloud-cli", "IBM Cloud CLI: config.json IAM tokens"),
  file(".config/linode-cli", "cloud-cli", "Linode CLI: API token"),
  file(".linode-cli", "cloud-cli", "Linode CLI (older versions): API token"),
  directory(".fly", "cloud-cli", "Fly.io flyctl: config.yml access_token"),
  directory("com.vercel.cli", "cloud-cli", "Vercel CLI: auth.json token (under ~/.local/share or Application Support)"),
  file(".config/netlify/config.json", "cloud-cli", "Netlify CLI: access tokens"),
  file(".wrangler/config/default.toml", "cloud-cli", "Cloudflare wrangler: OAuth tokens (also under ~/.config/.wrangler)"),
  file(".dev.vars", "cloud-cli", "Cloudflare wrangler: local development secrets"),
  file(".terraform.d/credentials.tfrc.json", "cloud-cli", "Terraform CLI: HCP Terraform API tokens (terraform login)"),
  file(".terraformrc", "cloud-cli", "Terraform CLI configuration: credentials blocks"),
  file("terraform.rc", "cloud-cli", "Terraform CLI configuration on Windows: credentials blocks"),
  file(".vault-token", "cloud-cli", "HashiCorp Vault CLI: the current token"),
  file(".s3cfg", "cloud-cli", "s3cmd: access and secret keys"),
  file(".boto", "cloud-cli", "boto / gsutil: credentials"),
  file(".passwd-s3fs", "cloud-cli", "s3fs: access key pairs"),
  file(".config/rclone/rclone.conf", "cloud-cli", "rclone: remotes with tokens and passwords"),
  file(".supabase/access-token", "cloud-cli", "Supabase CLI: access token"),
  file(".config/configstore/firebase-tools.json", "cloud-cli", "Firebase CLI: refresh token"),
  file(".databrickscfg", "cloud-cli", "Databricks CLI: personal access tokens"),
  directory(".snowsql", "cloud-cli", "SnowSQL: config with passwords"),
  file(".config/snowflake/connections.toml", "cloud-cli", "Snowflake CLI: connection passwords"),
  file(".kaggle/kaggle.json", "cloud-cli", "Kaggle API: key"),
  file(".cache/huggingface/token", "cloud-cli", "Hugging Face Hub: access token"),
  file(".huggingface/token", "cloud-cli", "Hugging Face Hub (older versions): access token"),
  directory(".config/op", "password-store", "1Password CLI: session and account config"),

  // Package registries.
  file(".npmrc", "package-registry", "npm: _authToken lines (npm docs, npmrc)"),
  file(".yarnrc.yml", "package-registry", "Yarn Berry: npmAuthToken (yarnpkg.com, configuration)"),
  file(".yarnrc", "package-registry", "Yarn 1: registry auth settings"),
  file(".pypirc", "package-registry", "twine / PyPI: upload tokens (packaging.python.org, .pypirc)"),
  file("pip.conf", "package-registry", "pip: index-url with credentials (pip docs, configuration)"),
  file("pip.ini", "package-registry", "pip on Windows: index-url with credentials"),
  file(".config/pypoetry/auth.toml", "package-registry", "Poetry: repository credentials"),
  file(".cargo/credentials", "package-registry", "Cargo: crates.io token (Cargo book, credentials)"),
  file(".cargo/credentials.toml", "package-registry", "Cargo: crates.io token (Cargo book, credentials)"),
  file(".gem/credentials", "package-registry", "RubyGems: API key"),
  file(".local/share/gem/credentials", "package-registry", "RubyGems (XDG layout): API key"),
  file(".bundle/config", "package-registry", "Bundler: BUNDLE_<host> source credentials"),
  file(".nuget/NuGet/NuGet.Config", "package-registry", "NuGet: packageSourceCredentials"),
  file(".config/NuGet/NuGet.Config", "package-registry", "NuGet on Linux: packageSourceCredentials"),
  file(".composer/auth.json", "package-registry", "Composer: http-basic and token auth (getcomposer.org, authentication)"),
  file(".config/composer/auth.json", "package-registry", "Composer (XDG layout): auth.json"),
  file(".m2/settings.xml", "package-registry", "Maven: server passwords (maven.apache.org, settings)"),
  file(".m2/settings-security.xml", "package-registry", "Maven: the master password"),
  file(".gradle/gradle.properties", "package-registry", "Gradle: repository and signing credentials"),
  file(".ivy2/.credentials", "package-registry", "sbt / Ivy: repository credentials"),
  file(".sbt/.credentials", "package-registry", "sbt: repository credentials"),
  file(".hex/hex.config", "package-registry", "Hex (Elixir): API key"),
  file(".pub-cache/credentials.json", "package-registry", "Dart pub (older versions): OAuth credentials"),
  file(".config/dart/pub-credentials.json", "package-registry", "Dart pub: OAuth credentials"),
  directory(".jfrog", "package-registry", "JFrog CLI: server access tokens"),

  // Container registries and clusters.
  file(".docker/config.json", "container-registry", "Docker: registry auths (docs.docker.com, docker login)"),
  directory(".docker", "container-registry", "Docker: config, contexts and TLS keys"),
  file("containers/auth.json", "container-registry", "Podman / Buildah / Skopeo: registry auths (containers-auth.json(5))"),
  directory(".kube", "kubernetes", "kubectl: kubeconfig with client keys and tokens"),
  file("kubeconfig", "kubernetes", "a kubeconfig file by its usual name"),
  directory(".minikube", "kubernetes", "minikube: cluster client keys"),
  file(".talos/config", "kubernetes", "talosctl: client certificates"),

  // Version control and CI.
  directory(".ssh", "keys", "OpenSSH: private keys and known hosts"),
  directory(".gnupg", "keys", "GnuPG: private keyrings"),
  file(".git-credentials", "vcs-and-ci", "git credential-store: plain-text passwords (git-credential-store(1))"),
  file(".config/git/credentials", "vcs-and-ci", "git credential-store (XDG location)"),
  file(".netrc", "vcs-and-ci", "curl, git, ftp and Heroku: machine logins (netrc(5))"),
  file("_netrc", "vcs-and-ci", "netrc on Windows"),
  directory(".config/gh", "vcs-and-ci", "GitHub CLI: hosts.yml OAuth tokens"),
  file("gh/hosts.yml", "vcs-and-ci", "GitHub CLI hosts file under any config root"),
  directory(".config/glab-cli", "vcs-and-ci", "GitLab CLI: tokens"),
  file(".config/hub", "vcs-and-ci", "hub: GitHub OAuth token"),
  file(".circleci/cli.yml", "vcs-and-ci", "CircleCI CLI: API token (the project's .circleci/config.yml is not it)"),
  file(".travis/config.yml", "vcs-and-ci", "Travis CI CLI: access tokens"),
  file(".gitlab-runner/config.toml", "vcs-and-ci", "GitLab Runner (user mode): runner tokens"),
  file("buildkite-agent.cfg", "vcs-and-ci", "Buildkite agent: agent token"),
  file(".credentials", "vcs-and-ci", "GitHub Actions self-hosted runner: OAuth credentials"),
  file(".credentials_rsaparams", "vcs-and-ci", "GitHub Actions self-hosted runner: RSA key"),
  directory(".jenkins/secrets", "vcs-and-ci", "Jenkins: master key and secrets"),
  file(".authinfo", "vcs-and-ci", "Emacs auth-source: logins"),
  file(".authinfo.gpg", "vcs-and-ci", "Emacs auth-source: encrypted logins"),

  // Databases.
  file(".pgpass", "database", "PostgreSQL: passwords (libpq, the password file)"),
  file(".my.cnf", "database", "MySQL: client passwords"),
  file(".mylogin.cnf", "database", "MySQL: obfuscated login paths"),

  // Shell and REPL histories: commands typed with secrets in them.
  ...[
    ".bash_history",
    ".zsh_history",
    ".sh_history",
    ".ash_history",
    ".histfile",
    "fish_history",
    ".python_history",
    ".psql_history",
    ".mysql_history",
    ".node_repl_history",
    ".sqlite_history",
    ".rediscli_history",
    ".irb_history",
    ".pry_history",
    ".scala_history",
    ".Rhistory",
    ".dbshell",
    ".lesshst",
  ].map((name) => file(name, "shell-history", "shell and REPL history files (bash(1) HISTFILE and each REPL's own)")),
  directory(".local/share/atuin", "shell-history", "atuin: the shell history database"),

  // Password stores and keyrings.
  directory(".password-store", "password-store", "pass: the password store"),
  directory(".local/share/keyrings", "password-store", "GNOME Keyring"),
  directory(".config/Bitwarden CLI", "password-store", "Bitwarden CLI: data.json session"),
  directory(".config/Bitwarden", "password-store", "Bitwarden desktop: vault data"),
  directory("Library/Keychains", "password-store", "macOS keychains"),

  // Browser profiles: cookies, saved passwords, session tokens.
  directory(".mozilla", "browser", "Firefox profiles on Linux"),
  directory("snap/firefox", "browser", "Firefox snap profiles"),
  directory(".var/app/org.mozilla.firefox", "browser", "Firefox flatpak profiles"),
  directory(".config/google-chrome", "browser", "Chrome profiles on Linux"),
  directory(".config/chromium", "browser", "Chromium profiles on Linux"),
  directory(".config/BraveSoftware", "browser", "Brave profiles on Linux"),
  directory(".config/microsoft-edge", "browser", "Edge profiles on Linux"),
  directory(".config/vivaldi", "browser", "Vivaldi profiles on Linux"),
  directory(".config/opera", "browser", "Opera profiles on Linux"),
  directory("Library/Application Support/Google/Chrome", "browser", "Chrome profiles on macOS"),
  directory("Library/Application Support/Firefox", "browser", "Firefox profiles on macOS"),
  directory("Library/Cookies", "browser", "macOS cookie stores"),
  directory("AppData/Local/Google/Chrome/User Data", "browser", "Chrome profiles on Windows"),
  directory("AppData/Roaming/Mozilla/Firefox", "browser", "Firefox profiles on Windows"),
  ...["logins.json", "key4.db", "cookies.sqlite", "Login Data", "Cookies", "Web Data"].map((name) =>
    file(name, "browser", "browser profile stores (Firefox: logins/key4/cookies; Chromium: Login Data, Cookies, Web Data)"),
  ),

  // Environment files that are secret by their exact name.
  file(".envrc", "environment", "direnv: exported variables, often tokens"),
];

/**
 * Names that mark a secret anywhere. Tuned so that everyday reads pass: sources named after
 * secrets (`credentials.ts`, `secrets.py`), templates (`.env.example`) and build output do not match.
 */
export const SECRET_NAME_PATTERNS: readonly SecretNamePattern[] = [
  {
    pattern: /^\.env([.\-_].*)?$/,
    sample: ".env.x",
    category: "environment",
    source: "dotenv files: .env, .env.local, .env.production, .env-local (dotenv, Vite, Next.js docs)",
  },
  {
    pattern: /^.+\.env$/,
    sample: "x.env",
    category: "environment",
    source: "per-environment files such as prod.env (docker compose env_file)",
  },
  {
    pattern: /\.(tfvars|tfvars\.json)$/,
    sample: "x.tfvars",
    category: "cloud-cli",
    source: "Terraform variable files: terraform.tfvars, *.auto.tfvars (often secrets)",
  },
  {
    pattern: /\.tfstate(\.backup)?$/,
    sample: "terraform.tfstate",
    category: "cloud-cli",
    source: "Terraform state: holds every resource attribute, secrets included",
  },
  {
    pattern: /\.(pem|key|p12|pfx|jks|keystore|kdbx|ppk|keytab|ovpn)$/,
    sample: "x.pem",
    category: "keys",
    source: "private keys and key stores (PEM, PKCS#12, Java, KeePass, PuTTY, Kerberos keytab, OpenVPN profiles with inline keys)",
  },
  { pattern: /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/, sample: "id_rsa", category: "keys", source: "ssh-keygen default private key names" },
  { pattern: /\.kubeconfig$/, sample: "x.kubeconfig", category: "kubernetes", source: "kubeconfig files by extension" },
  {
    pattern:
      /^(.*[-_.])?(credentials?|secrets?|client_secrets?([-_].*)?|service[-_]?account([-_].*)?|firebase-adminsdk.*)\.(json|ya?ml|toml|ini|xml|txt|cfg|conf|properties|env|enc|plist)$/,
    sample: "credentials.json",
    category: "cloud-cli",
    source:
      "credentials.json (Google OAuth clients), secrets.yaml (Helm, sops), " +
      "service-account keys; source files such as credentials.ts do not match",
  },
  { pattern: /^\.secrets?$/, sample: ".secrets", category: "environment", source: "ad-hoc secret files (.secret, .secrets)" },
  { pattern: /^token\.json$/, sample: "token.json", category: "cloud-cli", source: "Google API quickstarts: the stored OAuth token" },
  { pattern: /^\.htpasswd$/, sample: ".htpasswd", category: "database", source: "Apache password files" },
  {
    pattern: /^wg\d*\.conf$/,
    sample: "wg0.conf",
    category: "vpn-and-wifi",
    source: "WireGuard interface configs: PrivateKey (wg-quick(8))",
  },
];

/** Templates that match a pattern above but, by convention, hold no secrets. */
export const SECRET_NAME_EXCEPTIONS: readonly RegExp[] = [
  /^\.env(\.[^.]+)*\.(example|sample|template|dist|schema)$/,
  /^.+\.env\.(example|sample|template)$/,
];

/** System files whose contents are secret (or are the memory of the machine and its processes). */
export const SECRET_SYSTEM_PATHS: readonly SecretSystemPath[] = [
  {
    pattern: /^\/etc\/(shadow|gshadow|sudoers|master\.passwd)(\.d\/.*|-)?$/,
    probe: "/etc/shadow",
    masks: ["/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers", "/etc/sudoers.d", "/etc/master.passwd"],
    category: "password-store",
    source: "shadow(5), sudoers(5)",
  },
  {
    pattern: /^\/proc\/.+\/(environ|mem|cmdline|maps|pagemap|auxv|stack|syscall)$/,
    probe: "/proc/1/environ",
    masks: [],
    category: "environment",
    source: "proc(5): any process's environment and memory",
  },
  {
    pattern: /^\/proc\/[^/]+\/(task\/[^/]+\/)?(root|cwd|fd)\/./,
    probe: "/proc/self/root/x",
    masks: [],
    category: "environment",
    source: "proc(5): another process's root, cwd and open files",
  },
  { pattern: /^\/proc\/kcore$/, probe: "/proc/kcore", masks: [], category: "environment", source: "proc(5): physical memory" },
  {
    pattern: /^\/etc\/ssh\/ssh_host_.*key$/,
    probe: "/etc/ssh/ssh_host_ed25519_key",
    masks: ["/etc/ssh/ssh_host_*key"],
    category: "keys",
    source: "sshd(8): host keys",
  },
  {
    pattern: /^\/etc\/ssl\/private(\/.*)?$/,
    probe: "/etc/ssl/private/x.key",
    masks: ["/etc/ssl/private"],
    category: "keys",
    source: "Debian: TLS private keys",
  },
  {
    pattern: /^\/etc\/kubernetes\/(pki\/.*|[^/]+\.conf)$/,
    probe: "/etc/kubernetes/admin.conf",
    masks: ["/etc/kubernetes/pki", "/etc/kubernetes/*.conf"],
    category: "kubernetes",
    source: "kubeadm: admin.conf and the cluster PKI",
  },
  {
    pattern: /^\/(var\/)?run\/secrets(\/.*)?$/,
    probe: "/run/secrets/x",
    masks: ["/run/secrets", "/var/run/secrets"],
    category: "kubernetes",
    source: "Docker and Kubernetes mounted secrets (service account tokens)",
  },
  {
    pattern: /^\/etc\/mysql\/debian\.cnf$/,
    probe: "/etc/mysql/debian.cnf",
    masks: ["/etc/mysql/debian.cnf"],
    category: "database",
    source: "Debian MySQL maintenance password",
  },
  {
    pattern: /^\/etc\/security\/opasswd$/,
    probe: "/etc/security/opasswd",
    masks: ["/etc/security/opasswd"],
    category: "password-store",
    source: "pam_pwhistory: old password hashes",
  },
  {
    pattern: /^\/etc\/NetworkManager\/system-connections(\/.*)?$/,
    probe: "/etc/NetworkManager/system-connections/home.nmconnection",
    masks: ["/etc/NetworkManager/system-connections"],
    category: "vpn-and-wifi",
    source: "NetworkManager: Wi-Fi PSKs and VPN secrets (nm-settings-keyfile(5))",
  },
  {
    pattern: /^\/etc\/wireguard(\/.*)?$/,
    probe: "/etc/wireguard/wg0.conf",
    masks: ["/etc/wireguard"],
    category: "vpn-and-wifi",
    source: "wg-quick(8): interface private keys",
  },
  {
    pattern: /^\/etc\/openvpn(\/.*)?$/,
    probe: "/etc/openvpn/client.conf",
    masks: ["/etc/openvpn"],
    category: "vpn-and-wifi",
    source: "OpenVPN: keys and auth-user-pass files",
  },
  {
    pattern: /^\/etc\/wpa_supplicant(\/.*)?$/,
    probe: "/etc/wpa_supplicant/wpa_supplicant.conf",
    masks: ["/etc/wpa_supplicant"],
    category: "vpn-and-wifi",
    source: "wpa_supplicant.conf(5): Wi-Fi PSKs",
  },
  {
    pattern: /^\/var\/lib\/iwd(\/.*)?$/,
    probe: "/var/lib/iwd/home.psk",
    masks: ["/var/lib/iwd"],
    category: "vpn-and-wifi",
    source: "iwd: Wi-Fi PSKs (iwd.network(5))",
  },
  {
    pattern: /^\/etc\/ppp\/(chap|pap)-secrets$/,
    probe: "/etc/ppp/chap-secrets",
    masks: ["/etc/ppp/chap-secrets", "/etc/ppp/pap-secrets"],
    category: "vpn-and-wifi",
    source: "pppd(8): CHAP and PAP secrets",
  },
  {
    pattern: /^\/etc\/(ipsec\.secrets|swanctl(\/.*)?)$/,
    probe: "/etc/ipsec.secrets",
    masks: ["/etc/ipsec.secrets", "/etc/swanctl"],
    category: "vpn-and-wifi",
    source: "strongSwan: IPsec keys",
  },
  {
    pattern: /^\/etc\/gitlab-runner\/config\.toml$/,
    probe: "/etc/gitlab-runner/config.toml",
    masks: ["/etc/gitlab-runner/config.toml"],
    category: "vcs-and-ci",
    source: "GitLab Runner: runner tokens",
  },
];
